export { RecordChecksApiModule, ToolsApiModule } from './tools.module';
export { registrarValueProblem } from './record-values';
export { type HostnameCheckView, RecordChecks } from './record-checks.service';
// The value lists the API document names (libs/openapi).
export { LOOKUP_RCODES, LOOKUP_STATUSES } from './dns-lookup.service';
export { RESOLVER_STATUSES } from './propagation.service';
export { RECORD_STATUSES } from './record-checks.service';

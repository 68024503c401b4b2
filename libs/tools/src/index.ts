export { RecordChecksApiModule, ToolsApiModule } from './tools.module';
export { registrarValueProblem } from './record-values';
export { type HostnameCheckView, hostnameCheckSchema, RecordChecks } from './record-checks.service';
// The value lists and result schemas the API document names (libs/openapi).
export { dnsLookupResultSchema, LOOKUP_RCODES, LOOKUP_STATUSES } from './dns-lookup.service';
export { propagationResultSchema, RESOLVER_STATUSES } from './propagation.service';
export { RECORD_STATUSES } from './record-checks.service';
export { caaCheckResultSchema } from './caa-check.service';
export { providerDetectResultSchema } from './provider-detect.service';
export { tlsCheckResultSchema } from './tls-check.service';

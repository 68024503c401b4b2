export { RecordChecksApiModule, ToolsApiModule } from './tools.module';
export { registrarValueProblem } from './record-values';
export { type HostnameCheckView, RecordChecks } from './record-checks.service';

export * from './tools.module';
export * from './record-values';
export { RecordChecks, type HostnameCheckView } from './record-checks.service';

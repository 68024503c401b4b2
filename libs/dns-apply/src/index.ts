export { DnsApplyModule } from './dns-apply.module';
// The value lists the API document names (libs/openapi).
export { DNS_PROVIDER_IDS, dnsAppliedSchema, WRITE_ACTIONS } from './dns-provider';

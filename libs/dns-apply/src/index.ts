export { DnsApplyModule } from './dns-apply.module';

export {
  type CaaAnswer,
  DnsLookupError,
  DnsResolver,
  LOOKUP_TYPES,
  type LookupRecord,
  type LookupType,
} from './dns-resolver';
export { DnsProber } from './dns-prober';
export { climbCaa } from './caa-lookup';
export { OriginPreflight, type OriginVerdict } from './origin-preflight';
export { DnsModule } from './dns.module';
export { type ServedCertificate, ServedCertificateProbe } from './served-certificate.probe';

/** DNS lookups and probes: the resolver, the domain prober, CAA climbing, origin preflight and served certificates. */
export { DnsModule } from './dns.module';
// Services
export { DnsProber } from './dns-prober';
export { OriginPreflight, type OriginVerdict } from './origin-preflight';
export { type ServedCertificate, ServedCertificateProbe } from './served-certificate.probe';
export { climbCaa } from './caa-lookup';
// The resolver and its record types
export {
  type CaaAnswer,
  DnsLookupError,
  DnsResolver,
  LOOKUP_TYPES,
  lookupRecordSchema,
  type LookupType,
} from './dns-resolver';

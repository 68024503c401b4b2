import { arrayOf, obj, ref } from '../schema';
import type { OperationDoc } from './operation-doc';

/** Keyless tools and record checks. */
export const TOOL_OPERATIONS: Record<string, OperationDoc> = {
  'GET /v1/tools/dns-lookup': {
    summary: 'Keyless: DNS records of a hostname (A, AAAA, CNAME, TXT, NS, MX, CAA)',
    response: ref('DnsLookupResult'),
    errors: ['service_unavailable'],
  },
  'GET /v1/tools/caa-check': {
    summary: 'Keyless: would our certificate authorities be allowed to issue?',
    response: ref('CaaCheckResult'),
    errors: ['service_unavailable'],
  },
  'GET /v1/tools/dns-provider': {
    summary: "Keyless: the hostname's DNS provider, from its nameservers",
    response: ref('ProviderDetectResult'),
    errors: ['service_unavailable'],
  },
  'GET /v1/tools/propagation': {
    summary: 'Keyless: what several public resolvers answer, against an expected value',
    response: ref('PropagationResult'),
  },
  'GET /v1/tools/tls-check': {
    summary: 'Keyless: the certificate chain a public hostname serves (private addresses refused)',
    response: ref('TlsCheckResult'),
  },
  'POST /v1/dns/check-records-single': {
    summary: 'Whether records exist as expected at one hostname',
    response: ref('HostnameRecordCheck'),
  },
  'POST /v1/dns/check-records-batch': {
    summary: 'Record checks for up to 100 hostnames',
    response: obj({ results: arrayOf(ref('HostnameRecordCheck')) }),
  },
};

import { arrayOf, Infer, obj, oneOfValues, ref, str } from '@app/kernel';
import { DnsLookupError, DnsResolver, LOOKUP_TYPES, lookupRecordSchema, LookupType } from '@app/dns';
import { normalizeLookupHostname } from '@app/hostname-rules';
import { Injectable } from '@nestjs/common';

/** `error`: the resolver did not answer (timeout, SERVFAIL, refused); `error` then holds its code. */
export const LOOKUP_STATUSES = ['ok', 'nodata', 'nxdomain', 'error'] as const;

/** NXDOMAIN when the name does not exist at all; NOERROR when it exists (maybe without the types asked). */
export const LOOKUP_RCODES = ['NOERROR', 'NXDOMAIN', 'UNKNOWN'] as const;

const typeLookupSchema = obj(
  {
    type: oneOfValues(...LOOKUP_TYPES),
    status: oneOfValues(...LOOKUP_STATUSES),
    records: arrayOf(ref('LookupRecord', lookupRecordSchema)),
    error: str(),
  },
  ['error'],
);
export type TypeLookup = Infer<typeof typeLookupSchema>;

export const dnsLookupResultSchema = obj({
  hostname: str(),
  rcode: oneOfValues(...LOOKUP_RCODES),
  results: arrayOf(typeLookupSchema),
});
export type DnsLookupResult = Infer<typeof dnsLookupResultSchema>;

/** The DNS lookup tool: one or every type at a name, through DNS_RESOLVERS. */
@Injectable()
export class DnsLookupTool {
  constructor(private readonly resolver: DnsResolver) {}

  async lookup(input: string, type?: LookupType): Promise<DnsLookupResult> {
    const hostname = normalizeLookupHostname(input);
    const types = type ? [type] : [...LOOKUP_TYPES];
    const results = await Promise.all(types.map((t) => lookupOne(this.resolver, hostname, t)));
    const answered = results.filter((r) => r.status !== 'error');
    const rcode = !answered.length ? 'UNKNOWN' : answered.some((r) => r.status !== 'nxdomain') ? 'NOERROR' : 'NXDOMAIN';
    return { hostname, rcode, results };
  }
}

export async function lookupOne(resolver: DnsResolver, hostname: string, type: LookupType): Promise<TypeLookup> {
  try {
    return { type, ...(await resolver.lookup(hostname, type)) };
  } catch (error) {
    if (!(error instanceof DnsLookupError)) throw error;
    return { type, status: 'error', records: [], error: error.code };
  }
}

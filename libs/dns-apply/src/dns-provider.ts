import { arrayOf, Infer, int, obj, oneOfValues, str } from '@app/kernel';
import { DNS_RECORD_VIEW_TYPES, type DnsRecordView } from '@app/domains';

/** The DNS providers dns/apply can write to (DESIGN decision 4). */
export const DNS_PROVIDER_IDS = ['cloudflare', 'digitalocean'] as const;
export type DnsProviderId = (typeof DNS_PROVIDER_IDS)[number];

/** A record the domain needs at its hostname (the domain's own dnsRecords). */
export type DesiredRecord = Pick<DnsRecordView, 'type' | 'name' | 'value' | 'ttl'>;

/** A record now in place at the provider: created by this call, or already right and kept. */
export const WRITE_ACTIONS = ['created', 'kept'] as const;

const writtenRecordSchema = obj({
  id: str(),
  type: oneOfValues(...DNS_RECORD_VIEW_TYPES),
  name: str(),
  value: str(),
  ttl: int(),
  action: oneOfValues(...WRITE_ACTIONS),
});
export type WrittenRecord = Infer<typeof writtenRecordSchema>;

/** What a provider did (`DnsApplied` in the API document, with the provider's id). */
export const dnsAppliedSchema = obj({
  provider: oneOfValues(...DNS_PROVIDER_IDS),
  written: arrayOf(writtenRecordSchema),
  removed: int('Conflicting A, AAAA, CNAME or ALIAS records removed at the hostname'),
});
export type ApplyResult = Omit<Infer<typeof dnsAppliedSchema>, 'provider'>;

/**
 * Writes the desired records at one hostname with the customer's token. Implementations touch only
 * A, AAAA, CNAME and ALIAS records at exactly that name, and never keep or log the token.
 */
export interface DnsProvider {
  readonly id: DnsProviderId;
  /** The provider answers a CNAME at the zone apex with the target's addresses (CNAME flattening). */
  readonly flattensApexCname: boolean;
  apply(hostname: string, records: DesiredRecord[], token: string): Promise<ApplyResult>;
}

export const DNS_PROVIDERS = Symbol('DNS_PROVIDERS');

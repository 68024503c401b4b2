import type { DnsRecordView } from '@app/domains';

/** The DNS providers dns/apply can write to (DESIGN decision 4). */
export const DNS_PROVIDER_IDS = ['cloudflare', 'digitalocean'] as const;
export type DnsProviderId = (typeof DNS_PROVIDER_IDS)[number];

/** A record the domain needs at its hostname (the domain's own dnsRecords). */
export interface DesiredRecord {
  type: DnsRecordView['type'];
  name: string;
  value: string;
  ttl: number;
}

/** A record now in place at the provider: created by this call, or already right and kept. */
export const WRITE_ACTIONS = ['created', 'kept'] as const;
export type WriteAction = (typeof WRITE_ACTIONS)[number];

export interface WrittenRecord extends DesiredRecord {
  id: string;
  action: WriteAction;
}

export interface ApplyResult {
  written: WrittenRecord[];
  removed: number;
}

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

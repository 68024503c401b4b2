import type { DomainView } from '@app/domains';
import { Html, html } from '../html';
import { when } from './layout';

/** What the monitor remembers of a domain's DNS (its machine's fields; not part of the API's view). */
export interface DnsHistory {
  /** When DNS first pointed at the edge; null while it never has. */
  firstCorrectAt: string | null;
  /** Wrong observations in a row since the last correct one (0: the last check saw it correct). */
  wrongChecks: number;
}

/** A fact in words with the instant it refers to, if any ("first seen correct <at>"). */
export interface Fact {
  text: string;
  at?: string;
}

type Domain = Pick<DomainView, 'status' | 'statusReason' | 'monitorStatus' | 'verifiedAt' | 'lastCheckedAt'>;

const dnsCorrectNow = (h: DnsHistory) => h.firstCorrectAt !== null && h.wrongChecks === 0;
const checks = (n: number) => (n === 1 ? 'the last check' : `the last ${n} checks`);

/** Whether the hostname points at the edge, from the monitor's record (not "verified": that needs a certificate too). */
export function dnsFact(domain: Domain, h: DnsHistory): Fact {
  if (h.firstCorrectAt === null)
    return { text: domain.lastCheckedAt ? 'Not pointing at this service yet' : 'Not checked yet' };
  if (h.wrongChecks === 0) return { text: 'Correct; first seen correct', at: h.firstCorrectAt };
  return { text: `Wrong at ${checks(h.wrongChecks)}; was first seen correct`, at: h.firstCorrectAt };
}

/**
 * Whether visitors are served over HTTPS now, and what it waits for when not. `verifiedAt` is the first
 * verification (kept through later failures), so it is "first live", never "live since".
 */
export function liveFact(domain: Domain, h: DnsHistory): Fact {
  const reason = domain.statusReason ? ` (${domain.statusReason.replace(/_/g, ' ')})` : '';
  switch (domain.status) {
    case 'verified':
      return { text: 'Live; first live', at: domain.verifiedAt ?? undefined };
    case 'pending':
      if (domain.monitorStatus === 'ready_to_switch')
        return { text: 'Not live yet: the certificate is ready; waiting for DNS to point at this service' };
      if (!dnsCorrectNow(h)) return { text: 'Not live yet: waiting for DNS' };
      if (domain.monitorStatus === 'ssl_failed')
        return { text: 'Not live yet: DNS is correct, the certificate order failed (see Last error)' };
      return { text: 'Not live yet: DNS is correct, waiting for the certificate' };
    case 'failed':
    case 'expired':
      // Not served; when it was live once, since when it first was.
      return domain.verifiedAt
        ? { text: `Not live: ${domain.status}${reason}; was first live`, at: domain.verifiedAt }
        : { text: `Not live: ${domain.status}${reason}` };
  }
}

export const factHtml = (f: Fact): Html => html`${f.text}${f.at ? html` ${when(f.at)}` : ''}`;

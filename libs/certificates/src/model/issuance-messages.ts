import type { FailureCode } from './issuance-failure';

/**
 * What the customer reads on the domain after a failed order: what happened, whether it is theirs to
 * fix and how, and when we try again. Pure; `ca` is the CA's display name, `at` the next try.
 */
export interface FailureContext {
  hostname: string;
  ca: string;
  detail: string;
  retryAt: Date;
  /** Set when the order was validated by DNS-01 through the `_acme-challenge` delegation. */
  delegation?: { name: string; target: string };
}

/** `10:32 UTC` today, `28 Nov 10:32 UTC` on another day. */
function when(at: Date, now: Date): string {
  const time = `${at.toISOString().slice(11, 16)} UTC`;
  if (at.toISOString().slice(0, 10) === now.toISOString().slice(0, 10)) return time;
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return `${day} ${time}`;
}

const clip = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
};

export function failureMessage(code: FailureCode | 'budget' | 'queued', c: FailureContext, now: Date): string {
  const next = when(c.retryAt, now);
  switch (code) {
    case 'validation_failed':
      if (c.delegation)
        return (
          `${c.ca} could not verify ${c.hostname} through ${c.delegation.name} (${clip(c.detail)}). Make sure ` +
          `${c.delegation.name} is a CNAME to ${c.delegation.target} and nothing else (no TXT record beside it). ` +
          `We try again at ${next}, or as soon as you run a check.`
        );
      return (
        `${c.ca} could not verify ${c.hostname} over HTTP (${clip(c.detail)}). Make sure ${c.hostname} points only ` +
        `at the records shown (no other A or AAAA records) and that nothing blocks port 80. ` +
        `We try again at ${next}, or as soon as you run a check.`
      );
    case 'ca_rate_limited':
      return `${c.ca} asked us to slow down (${clip(c.detail)}). Nothing to do on your side: we try again at ${next}.`;
    case 'ca_unavailable':
      return `${c.ca} could not be reached (${clip(c.detail)}). Nothing to do on your side: we try again at ${next}.`;
    case 'ca_refused':
      return `${c.ca} refused to issue a certificate for ${c.hostname} (${clip(c.detail)}). We try again at ${next}.`;
    case 'ca_account':
      return (
        `Our account at ${c.ca} was not accepted (${clip(c.detail)}); our operators have to fix it. ` +
        `Nothing to do on your side: we try again at ${next}.`
      );
    case 'internal_error':
      return `We could not complete the certificate order (${clip(c.detail)}). Nothing to do on your side: we try again at ${next}.`;
    case 'ca_error':
      return `${c.ca} could not issue the certificate (${clip(c.detail)}). We try again at ${next}.`;
    case 'budget':
      return (
        `Certificates for ${c.hostname} wait for the certificate authorities' limits (${clip(c.detail)}). ` +
        `Nothing to do on your side: the order starts at about ${next}.`
      );
    case 'queued':
      return `Your certificate is queued behind other orders and starts at about ${next}. Nothing to do on your side.`;
  }
}

/** CAA allows none of our CAs: the records that would allow each, one bound to our account where we have it. */
export function caaMessage(relevantName: string, records: string[], allowing: string[]): string {
  const found = `The CAA records on ${relevantName} (${records.join('; ')}) allow none of the certificate authorities we use.`;
  if (!allowing.length) return `${found} Remove the CAA records at your DNS provider.`;
  return `${found} Add one of these records at your DNS provider, or remove the CAA records: ${allowing.join(' or ')}.`;
}

/**
 * A wildcard's order that cannot start: its `_acme-challenge` delegation is missing, points elsewhere,
 * could not be looked up, or this service has no challenge zone (an operator's setting).
 */
export function delegationMessage(
  hostname: string,
  delegation: { name: string; target: string } | undefined,
  found: readonly string[] | 'lookup_failed',
  retryAt: Date,
  now: Date,
): string {
  const next = when(retryAt, now);
  if (!delegation)
    return `A certificate for ${hostname} needs DNS-01, which this service is not set up for (no challenge zone). Our operators have to set it up.`;
  const add = `Add the record ${delegation.name} CNAME ${delegation.target}`;
  if (found === 'lookup_failed')
    return `We could not look up ${delegation.name} (DNS did not answer). We try again at ${next}, or as soon as you run a check.`;
  if (found.length)
    // Often the customer's own wildcard record answering for the name: a record of its own overrides it.
    return `${delegation.name} points at ${found.join(', ')} (perhaps through a wildcard record), not at ${delegation.target}. ${add}. We try again at ${next}, or as soon as you run a check.`;
  return `${add}: a wildcard certificate is validated through it. We try again at ${next}, or as soon as you run a check.`;
}

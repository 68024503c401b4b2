/**
 * When a certificate is renewed. With the CA's advice (ACME Renewal Information, RFC 9773 section
 * 4.2): a uniformly random time inside the suggested window, or now when the window has already
 * ended. Without it: when between a half and a third of the lifetime remains, uniformly, so a
 * 90-day certificate renews between 45 and 30 days before expiry and a 6-day one between 3 and 2
 * days; certificates issued together spread over a sixth of their lifetime instead of all renewing
 * in the same hour. Pure: the random draw is passed in.
 */
export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

export interface RenewalWindow {
  start: Date;
  end: Date;
}

/** The fraction of the lifetime elapsed at the earliest and latest renewal without ARI. */
const RENEW_FROM_ELAPSED = 1 / 2;
const RENEW_BY_ELAPSED = 2 / 3;

/** `random` in [0, 1): the same draw gives the same time, so a stored choice can be recomputed. */
export function renewalTime(validity: Validity, random: number, now: Date, window?: RenewalWindow): Date {
  if (window && window.end.getTime() > window.start.getTime()) {
    if (window.end.getTime() <= now.getTime()) return now;
    const start = Math.max(window.start.getTime(), now.getTime());
    return new Date(start + random * (window.end.getTime() - start));
  }
  const begin = validity.notBefore.getTime();
  const lifetime = validity.notAfter.getTime() - begin;
  const elapsed = RENEW_FROM_ELAPSED + random * (RENEW_BY_ELAPSED - RENEW_FROM_ELAPSED);
  return new Date(begin + Math.round(lifetime * elapsed));
}

import { getDomain } from 'tldts';
import { BucketLimit } from './token-bucket';

/**
 * The CA's limits we keep our own count of, so an order the CA would refuse is never sent. Defaults
 * are Let's Encrypt's published ones (letsencrypt.org/docs/rate-limits), all token buckets:
 * - new orders per account: 300 per 3 hours, one back every 36 s;
 * - certificates per registered domain: 50 per 7 days, one back about every 202 minutes;
 * - authorization failures per hostname per account: 5 per hour, one back every 12 minutes.
 */
export type IssuanceLimitName = 'new_orders' | 'certificates_per_domain' | 'failed_validations';

export interface IssuanceLimit extends BucketLimit {
  name: IssuanceLimitName;
}

export type IssuanceLimits = Record<IssuanceLimitName, IssuanceLimit>;

export const LETS_ENCRYPT_LIMITS: IssuanceLimits = {
  new_orders: { name: 'new_orders', capacity: 300, periodSeconds: 3 * 3600 },
  certificates_per_domain: { name: 'certificates_per_domain', capacity: 50, periodSeconds: 7 * 86_400 },
  failed_validations: { name: 'failed_validations', capacity: 5, periodSeconds: 3600 },
};

export type IssuanceLimitOverrides = Partial<Record<IssuanceLimitName, Partial<BucketLimit>>>;

/** The defaults with an operator's changes (a raised account limit, another CA's numbers). */
export function issuanceLimits(overrides: IssuanceLimitOverrides = {}): IssuanceLimits {
  const limit = (name: IssuanceLimitName): IssuanceLimit => {
    const merged = { ...LETS_ENCRYPT_LIMITS[name], ...overrides[name], name };
    if (!(merged.capacity >= 1) || !(merged.periodSeconds > 0)) {
      throw new RangeError(`${name}: capacity must be at least 1 and the period positive`);
    }
    return merged;
  };
  return {
    new_orders: limit('new_orders'),
    certificates_per_domain: limit('certificates_per_domain'),
    failed_validations: limit('failed_validations'),
  };
}

/**
 * The registered domain as Let's Encrypt counts it: the public suffix list with its private section
 * (each `*.github.io` site is its own), unlike the ICANN-only `registrableDomain` of
 * @app/hostname-rules. A name with none (an IP address, a bare suffix) counts on its own.
 */
export function registeredDomain(hostname: string): string {
  // `*.example.com` counts against example.com, as the CA counts it.
  const name = hostname.startsWith('*.') ? hostname.slice(2) : hostname;
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/** The bucket of each limit one order of `hostname` from `issuerName`'s account counts against. */
export function orderBuckets(
  issuerName: string,
  hostname: string,
  registrableDomain: string,
): Record<IssuanceLimitName, string> {
  return {
    new_orders: `new_orders:${issuerName}`,
    certificates_per_domain: `certificates_per_domain:${issuerName}:${registrableDomain}`,
    failed_validations: `failed_validations:${issuerName}:${hostname}`,
  };
}

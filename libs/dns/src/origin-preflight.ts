import {
  OriginUrlError,
  ParsedOrigin,
  checkResolvedAddresses,
  classifyAddress,
  parseOriginUrl,
} from '@app/hostname-rules';
import { DomainError } from '@app/kernel';
import { DnsLookupError, DnsResolver } from './dns-resolver';

export interface OriginVerdict {
  origin: ParsedOrigin;
  addresses: string[];
}

/**
 * The SSRF check of an origin URL (SPEC 7): only http(s), no private or reserved destinations by
 * literal or by any resolved address, unless OUTBOUND_ALLOW_CIDRS exempts them.
 */
export class OriginPreflight {
  constructor(
    private readonly resolver: DnsResolver,
    private readonly allowCidrs: readonly string[],
  ) {}

  /** Throws 400 bad_request for a malformed URL and 400 preflight_failed for a blocked one. */
  async check(originUrl: string, field = 'originUrl'): Promise<OriginVerdict> {
    let origin: ParsedOrigin;
    try {
      origin = parseOriginUrl(originUrl);
    } catch (error) {
      if (!(error instanceof OriginUrlError)) throw error;
      if (error.code === 'invalid_url') throw new DomainError('bad_request', `${field} ${error.message}`, { field });
      throw blocked(field, error.message, []);
    }
    if (origin.literalIp) {
      const verdict = classifyAddress(origin.literalIp, this.allowCidrs);
      if (verdict.blocked)
        // The verdict's reason already names the address ("169.254.169.254 is a link-local address").
        throw blocked(field, verdict.reason ?? `${origin.literalIp} is not a public address`, [origin.literalIp]);
      return { origin, addresses: [origin.literalIp] };
    }
    let addresses: string[];
    try {
      addresses = await this.resolver.addresses(origin.host);
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      throw new DomainError(
        'preflight_failed',
        `${field}: could not resolve ${origin.host} (${error.code}); try again`,
        {
          field,
          reason: 'origin_lookup_failed',
        },
      );
    }
    if (!addresses.length) {
      throw new DomainError('preflight_failed', `${field}: ${origin.host} does not resolve to any address`, {
        field,
        reason: 'origin_unresolvable',
      });
    }
    const check = checkResolvedAddresses(addresses, this.allowCidrs);
    if (check.blocked) {
      const list = check.offending.map((o) => o.reason).join(', ');
      throw blocked(
        field,
        `${origin.host} resolves to a blocked address: ${list}`,
        check.offending.map((o) => o.address),
      );
    }
    return { origin, addresses };
  }
}

function blocked(field: string, why: string, addresses: string[]): DomainError {
  return new DomainError('preflight_failed', `${field} is not allowed: ${why}`, {
    field,
    reason: 'ssrf_blocked',
    addresses,
  });
}

import { checkResolvedAddresses, classifyAddress } from '@app/hostname-rules';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/** The origin resolves to (or is) an address the SSRF rules refuse: nothing was sent to it. */
export class OriginBlockedError extends Error {
  readonly code = 'EORIGINBLOCKED';
  constructor(
    readonly hostname: string,
    readonly reason: string,
  ) {
    super(`Origin ${hostname} is blocked: ${reason}`);
    this.name = 'OriginBlockedError';
  }
}

/** What the lookup needs from a resolver (DnsResolver: A and AAAA through DNS_RESOLVERS). */
export interface AddressResolver {
  addresses(name: string): Promise<string[]>;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** Injection token of the edge's SafeLookup. */
export const SAFE_LOOKUP = Symbol('SAFE_LOOKUP');

export type SafeLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** Refuses a literal address the SSRF rules block (net.connect skips `lookup` for literals). */
export function checkLiteral(ip: string, allowCidrs: readonly string[]): void {
  const verdict = classifyAddress(ip, allowCidrs);
  if (verdict.blocked) throw new OriginBlockedError(ip, verdict.reason ?? 'blocked');
}

/** Resolves a hostname and refuses it when ANY address is blocked (as the preflight does). */
export async function resolveAllowed(
  resolver: AddressResolver,
  hostname: string,
  allowCidrs: readonly string[],
): Promise<string[]> {
  if (isIP(hostname)) {
    checkLiteral(hostname, allowCidrs);
    return [hostname];
  }
  const addresses = await resolver.addresses(hostname);
  if (!addresses.length) {
    throw Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND', hostname });
  }
  const check = checkResolvedAddresses(addresses, allowCidrs);
  if (check.blocked) throw new OriginBlockedError(hostname, check.offending.map((o) => o.reason).join('; '));
  return addresses;
}

/**
 * A `lookup` for node:http(s) and node:net that resolves through the configured resolvers and
 * checks the addresses at connect time, so the socket can only ever reach an address that passed:
 * a name that rebinds to a private address after the preflight is refused here.
 */
export function createSafeLookup(resolver: AddressResolver, allowCidrs: readonly string[]): SafeLookup {
  return (hostname, options, callback) => {
    resolveAllowed(resolver, hostname, allowCidrs).then(
      (all) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? all.filter((a) => isIP(a) === family) : all;
        if (!wanted.length) {
          return callback(
            Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }),
            '',
          );
        }
        if (options.all)
          return callback(
            null,
            wanted.map((address) => ({ address, family: isIP(address) })),
          );
        callback(null, wanted[0], isIP(wanted[0]));
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

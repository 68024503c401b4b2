import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * SSRF rules for origin URLs (SPEC section 7). Only globally routable unicast addresses may be
 * reached; `allowCidrs` (OUTBOUND_ALLOW_CIDRS) exempts ranges for tests and private deployments.
 * IPv4-mapped IPv6 is judged as IPv4; NAT64 (64:ff9b::/96) and 6to4 (2002::/16) are judged by the
 * IPv4 address they embed; Teredo is always refused.
 */
export interface AddressVerdict {
  blocked: boolean;
  reason?: string;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (this includes cloud metadata at 169.254.169.254)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private network address (RFC 1918)',
  reserved: 'a reserved, benchmarking or documentation address',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  teredo: 'a Teredo tunnel address',
};
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

const blocked = (ip: string, why: string): AddressVerdict => ({ blocked: true, reason: `${ip} is ${why}` });

function isAllowed(address: Address, allowCidrs: readonly string[]): boolean {
  return allowCidrs.some((cidr) => {
    const range = ipaddr.parseCIDR(cidr);
    return range[0].kind() === address.kind() && address.match(range);
  });
}

/** The IPv4 address a NAT64 or 6to4 address carries, if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [, p1, p2, , , , p6, p7] = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  if (address.match(NAT64)) return v4(p6, p7);
  if (address.range() === '6to4') return v4(p1, p2);
  return undefined;
}

function judge(address: Address, shown: string, allowCidrs: readonly string[]): AddressVerdict {
  if (isAllowed(address, allowCidrs)) return { blocked: false };
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    const inner = embeddedIpv4(v6);
    if (inner) {
      const verdict = judge(inner, inner.toString(), allowCidrs);
      return verdict.blocked ? blocked(shown, `a translation address embedding ${verdict.reason}`) : verdict;
    }
    if (v6.range() === 'unicast' && !v6.match(GLOBAL_UNICAST_V6)) return blocked(shown, 'not a global unicast address');
  }
  const range = address.range();
  if (range === 'unicast') return { blocked: false };
  return blocked(shown, RANGE_NAMES[range] ?? `a special-purpose address (${range})`);
}

/** Whether an outbound connection to `ip` must be refused. Anything that is not a plain IP address is refused. */
export function classifyAddress(ip: string, allowCidrs: readonly string[]): AddressVerdict {
  if (!isIP(ip)) return blocked(JSON.stringify(ip), 'not an IP address');
  const address = ipaddr.parse(ip);
  if (isAllowed(address, allowCidrs)) return { blocked: false };
  return judge(ipaddr.process(ip), ip, allowCidrs);
}

export interface ResolvedCheck {
  blocked: boolean;
  offending: Array<{ address: string; reason: string }>;
}

/** Blocks when ANY resolved address is blocked (a name with one public and one private address is refused). */
export function checkResolvedAddresses(addresses: readonly string[], allowCidrs: readonly string[]): ResolvedCheck {
  const offending = addresses.flatMap((address) => {
    const verdict = classifyAddress(address, allowCidrs);
    return verdict.blocked ? [{ address, reason: verdict.reason ?? 'blocked' }] : [];
  });
  return { blocked: offending.length > 0, offending };
}

/** `invalid_url` maps to 400 bad_request, `ssrf_blocked` to 400 preflight_failed. */
export class OriginUrlError extends Error {
  constructor(
    readonly code: 'invalid_url' | 'ssrf_blocked',
    message: string,
  ) {
    super(message);
    this.name = 'OriginUrlError';
  }
}

export interface ParsedOrigin {
  url: URL;
  /** Lowercase hostname without brackets or trailing dot: what to resolve (or the literal address). */
  host: string;
  /** Set when the host is an IP literal; numeric forms (`2130706433`, `0x7f.1`, `127.1`) arrive dotted. */
  literalIp?: string;
}

const MAX_URL_LENGTH = 2048;
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal'];

/** `shop.example.com/app` sent without a scheme: the URL with one, to suggest. */
function withScheme(input: string): string | undefined {
  if (input.includes('://') || input.startsWith('/')) return undefined;
  try {
    const url = new URL(`https://${input}`);
    return url.hostname.includes('.') || url.hostname === 'localhost' ? `https://${input}` : undefined;
  } catch {
    return undefined;
  }
}

const addScheme = (suggestion: string) =>
  new OriginUrlError('invalid_url', `must be an absolute http or https URL: add the scheme, e.g. ${suggestion}`);

/**
 * Parses an origin URL by the WHATWG rules (the same parser the proxy uses, so there is no
 * parser confusion) and refuses internal hostnames. Literal IPs are returned for `classifyAddress`;
 * other hosts must be resolved and passed to `checkResolvedAddresses` by the caller.
 * Messages have no subject: the caller names the field (`originUrl must be ...`, `url must be ...`).
 */
export function parseOriginUrl(input: string): ParsedOrigin {
  if (input.length > MAX_URL_LENGTH)
    throw new OriginUrlError('invalid_url', `must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  const trimmed = input.trim();
  try {
    url = new URL(trimmed);
  } catch {
    const suggestion = withScheme(trimmed);
    if (suggestion) throw addScheme(suggestion);
    throw new OriginUrlError('invalid_url', 'must be an absolute http or https URL, e.g. https://app.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `shop.example.com:8080/app` parses with `shop.example.com:` as its scheme.
    const scheme = url.protocol.slice(0, -1);
    const suggestion = scheme.includes('.') || scheme === 'localhost' ? withScheme(trimmed) : undefined;
    if (suggestion) throw addScheme(suggestion);
    throw new OriginUrlError('invalid_url', `must use http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username || url.password) throw new OriginUrlError('invalid_url', 'must not contain a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (!host) throw new OriginUrlError('invalid_url', 'must have a host, e.g. https://app.example.com');
  if (isIP(host)) return { url, host, literalIp: host };
  if (host === 'localhost' || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    throw new OriginUrlError('ssrf_blocked', `host ${host} is an internal name`);
  }
  if (!host.includes('.')) throw new OriginUrlError('ssrf_blocked', `host ${host} is not a public hostname`);
  return { url, host };
}

/**
 * The DNS mistakes the monitor and domain create name precisely, and the customer message of each.
 * Pure: the answers come from libs/dns. Each message names the record to change (or says that
 * nothing needs changing), instead of the generic "Update your CNAME".
 */
import * as ipaddr from 'ipaddr.js';
import { CLOUDFLARE_IPV4_RANGES, CLOUDFLARE_IPV6_RANGES } from './data/cloudflare-ip-ranges';
import type { Instant } from '@app/kernel';

export type DnsProblem =
  /** A records point at the edge, but AAAA records point elsewhere: CAs validate over IPv6 too. */
  | { kind: 'stray_aaaa'; hostname: string; aaaa: string[] }
  /** The name resolves to a CDN's proxy addresses (Cloudflare's orange cloud). */
  | { kind: 'proxied'; hostname: string; provider: 'Cloudflare'; addresses: string[] }
  /** Resolvers answer SERVFAIL while the parent delegates the zone: DNSSEC or the nameservers are broken. */
  | { kind: 'broken_delegation'; hostname: string; zone: string; nameservers: string[] }
  /** The authoritative servers answer right; resolvers still serve the old answer from their cache. */
  | { kind: 'stale_cache'; hostname: string; cached: string; ttl?: number; expiresAt?: Instant };

export type DnsProblemKind = DnsProblem['kind'];

/** Whether a hostname's DNS points at the edge, as a probe judged its answers. */
export type DnsObservation = 'not_resolving' | 'incorrect' | 'correct';

/** What the resolver answered for a hostname. */
export interface DnsAnswers {
  /** The hostname's own CNAME target, if any (lowercase, no trailing dot). */
  cname?: string;
  a: string[];
  aaaa: string[];
}

export interface EdgeAddresses {
  cnameTarget: string;
  ipv4: readonly string[];
}

export interface DnsVerdict {
  dns: DnsObservation;
  problem?: DnsProblem;
}

const RANGES = [...CLOUDFLARE_IPV4_RANGES, ...CLOUDFLARE_IPV6_RANGES].map((cidr) => ipaddr.parseCIDR(cidr));

/** Whether an address lies in Cloudflare's proxy ranges (IPv4-mapped IPv6 judged as IPv4). */
export function isCloudflareProxyAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return RANGES.some((range) => range[0].kind() === ip.kind() && ip.match(range));
}

/**
 * Judges the resolver's answers: correct when the CNAME is the edge target or every address is an
 * edge address; otherwise names the mistake when it is one of the known ones.
 */
export function classifyDnsAnswers(hostname: string, answers: DnsAnswers, edge: EdgeAddresses): DnsVerdict {
  if (answers.cname === edge.cnameTarget) return { dns: 'correct' };
  const addresses = [...answers.a, ...answers.aaaa];
  if (!addresses.length) return { dns: answers.cname ? 'incorrect' : 'not_resolving' };
  const onEdge = (address: string) => edge.ipv4.includes(address);
  if (addresses.every(onEdge)) return { dns: 'correct' };
  const proxied = addresses.filter(isCloudflareProxyAddress);
  if (proxied.length)
    return { dns: 'incorrect', problem: { kind: 'proxied', hostname, provider: 'Cloudflare', addresses: proxied } };
  if (answers.a.length && answers.a.every(onEdge))
    return {
      dns: 'incorrect',
      problem: { kind: 'stray_aaaa', hostname, aaaa: answers.aaaa.filter((a) => !onEdge(a)) },
    };
  return { dns: 'incorrect' };
}

const list = (items: readonly string[]) => items.join(', ');
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** `05:07 UTC on 2026-11-25`: a person reads it; the minute is all the precision a TTL deserves. */
function readableTime(instant: Instant): string {
  const iso = new Date(instant).toISOString();
  return `${iso.slice(11, 16)} UTC on ${iso.slice(0, 10)}`;
}

/** The customer-facing message of a problem: what is wrong and the exact record to change. */
export function dnsProblemMessage(problem: DnsProblem): string {
  switch (problem.kind) {
    case 'stray_aaaa': {
      const n = problem.aaaa.length;
      return (
        `Delete the AAAA ${plural(n, 'record', 'records')} of ${problem.hostname} (${list(problem.aaaa)}): ` +
        `your A records point at us, but certificate authorities also connect over IPv6 when AAAA records ` +
        `exist, so the certificate cannot be issued`
      );
    }
    case 'proxied':
      return (
        `${problem.hostname} resolves to ${problem.provider}'s proxy (${list(problem.addresses)}), not to us: ` +
        `switch its DNS record in ${problem.provider} to "DNS only" (grey cloud), keeping the value we gave you`
      );
    case 'broken_delegation':
      return (
        `${problem.hostname} cannot be resolved: DNS resolvers answer SERVFAIL although ${problem.zone} is ` +
        `delegated (nameservers ${list(problem.nameservers) || 'unknown'}). Its DNSSEC is broken (a DS record ` +
        `at your registrar that no longer matches the zone's keys) or its nameservers do not answer for it: ` +
        `fix or remove the DS record at your registrar, or correct the nameservers. Adding records will not ` +
        `help until then`
      );
    case 'stale_cache': {
      const until = problem.expiresAt
        ? `until about ${readableTime(problem.expiresAt)}${problem.ttl !== undefined ? ` (TTL ${problem.ttl} s)` : ''}`
        : 'until their cached copy expires';
      return (
        `Your nameservers already answer the right record for ${problem.hostname}; DNS resolvers still serve ` +
        `the old answer (${problem.cached}) from their cache ${until}. Nothing to change: it clears by itself`
      );
    }
  }
}

import { LookupType } from '@app/dns';
import { canonicalHostname } from '@app/kernel';
import * as ipaddr from 'ipaddr.js';

/**
 * Canonical forms of record values, so an expected value and what DNS answered compare equal when
 * they mean the same: names lowercase without the trailing dot, IPv6 compressed, TXT as one joined
 * string without surrounding quotes, MX as `priority exchange`, CAA as `flags tag "value"`. Pure.
 */

/** `"abc" "def"` (presentation form of a split TXT record) to `abcdef`; a bare string stays as it is. */
function joinTxt(value: string): string {
  const quoted = /^\s*"(?:[^"\\]|\\.)*"(?:\s+"(?:[^"\\]|\\.)*")*\s*$/;
  if (!quoted.test(value)) return value;
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1')).join('');
}

function address(value: string, kind: 'ipv4' | 'ipv6'): string {
  const trimmed = value.trim();
  if (!ipaddr.isValid(trimmed)) return trimmed.toLowerCase();
  const parsed = ipaddr.parse(trimmed);
  return parsed.kind() === kind ? parsed.toString() : trimmed.toLowerCase();
}

function caa(value: string): string {
  const match = /^\s*(?:(\d{1,3})\s+)?([A-Za-z0-9]+)\s+(.*?)\s*$/.exec(value);
  if (!match) return value.trim();
  const [, flags, tag, rest] = match;
  const unquoted = /^".*"$/.test(rest) ? rest.slice(1, -1).replace(/\\(.)/g, '$1') : rest;
  return `${Number(flags ?? 0)} ${tag.toLowerCase()} ${JSON.stringify(unquoted)}`;
}

/** MX as `priority exchange`; without a priority, only the exchange (then any priority matches). */
function mx(value: string): string {
  const match = /^\s*(?:(\d{1,5})\s+)?(\S+)\s*$/.exec(value);
  if (!match) return value.trim().toLowerCase();
  return match[1] === undefined ? canonicalHostname(match[2]) : `${Number(match[1])} ${canonicalHostname(match[2])}`;
}

export function normalizeValue(type: LookupType, value: string): string {
  switch (type) {
    case 'A':
      return address(value, 'ipv4');
    case 'AAAA':
      return address(value, 'ipv6');
    case 'CNAME':
    case 'NS':
      return canonicalHostname(value);
    case 'TXT':
      return joinTxt(value);
    case 'MX':
      return mx(value);
    case 'CAA':
      return caa(value);
  }
}

/** TXT and CAA values may hold commas; the other types' values may be listed comma-separated. */
export const splitExpected = (type: LookupType, values: unknown[]): unknown[] =>
  type === 'TXT' || type === 'CAA'
    ? values
    : values.flatMap((v) => (typeof v === 'string' ? v.split(',').filter((part) => part.trim()) : [v]));

/** Whether an expected (normalized) value is among those seen; an MX without priority matches any priority. */
export function valueSeen(type: LookupType, expected: string, seen: readonly string[]): boolean {
  if (type === 'MX' && !expected.includes(' ')) return seen.some((s) => s.slice(s.indexOf(' ') + 1) === expected);
  return seen.includes(expected);
}

/**
 * The name a record is checked at: omitted or `@` is the hostname; a name ending in a dot, the
 * hostname itself or a name under it is absolute; anything else is relative to the hostname
 * (`_acme-challenge` at `shop.example.com` is `_acme-challenge.shop.example.com`).
 */
export function recordName(hostname: string, name?: string): string {
  const raw = name?.trim().toLowerCase();
  if (!raw || raw === '@') return hostname;
  if (raw.endsWith('.')) return raw.slice(0, -1);
  if (raw === hostname || raw.endsWith(`.${hostname}`)) return raw;
  return `${raw}.${hostname}`;
}

const HOST =
  /^(?=.{1,253}\.?$)[a-z0-9_*](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

/** Why a value cannot be a record of the type (undefined when it can). Pure. */
export function valueProblem(type: LookupType, value: string): string | undefined {
  const trimmed = value.trim();
  switch (type) {
    case 'A':
      return ipaddr.IPv4.isValidFourPartDecimal(trimmed) ? undefined : 'value must be an IPv4 address for an A record';
    case 'AAAA':
      return ipaddr.IPv6.isValid(trimmed) ? undefined : 'value must be an IPv6 address for an AAAA record';
    case 'CNAME':
    case 'NS':
      return HOST.test(trimmed)
        ? undefined
        : `value must be a hostname for a${type === 'NS' ? 'n' : ''} ${type} record`;
    case 'MX': {
      const match = /^(?:(\d{1,5})\s+)?(\S+)$/.exec(trimmed);
      return match && Number(match[1] ?? 0) <= 65535 && HOST.test(match[2])
        ? undefined
        : 'value must be "priority exchange" (e.g. 10 mx.example.com) or an exchange hostname for an MX record';
    }
    case 'CAA':
      return /^(?:\d{1,3}\s+)?[A-Za-z0-9]+\s+\S/.test(trimmed) && Number(/^\d+/.exec(trimmed)?.[0] ?? 0) <= 255
        ? undefined
        : 'value must be "flags tag value" (e.g. 0 issue "letsencrypt.org") for a CAA record';
    case 'TXT':
      return undefined;
  }
}

/** Record types a registrar's DNS holds (SPEC 2.7), beyond the ones DNS lookups check. */
const SRV = /^(\d{1,5})\s+(\d{1,5})\s+(\d{1,5})\s+(\S+)$/;

/**
 * Why a value cannot be a registrar DNS record of the type (undefined when it can). MX carries its
 * priority in its own field, so its value is the exchange alone; SRV is `priority weight port target`;
 * the URL types are http(s) URLs. Pure.
 */
export function registrarValueProblem(type: string, value: string): string | undefined {
  const trimmed = value.trim();
  switch (type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
    case 'TXT':
      return valueProblem(type, value);
    case 'MX':
      return HOST.test(trimmed)
        ? undefined
        : 'value must be the exchange hostname for an MX record (the priority goes in priority)';
    case 'SRV': {
      const match = SRV.exec(trimmed);
      return match && [match[1], match[2], match[3]].every((n) => Number(n) <= 65535) && HOST.test(match[4])
        ? undefined
        : 'value must be "priority weight port target" (e.g. 10 5 5060 sip.example.com) for an SRV record';
    }
    case 'URL':
    case 'URL301':
    case 'FRAME':
      return /^https?:\/\/[^\s/]+/i.test(trimmed) && URL.canParse(trimmed)
        ? undefined
        : `value must be an http(s) URL for a ${type} record`;
    default:
      return undefined; // an unknown type is reported on `type`
  }
}

import { LookupType } from '@app/dns';
import * as ipaddr from 'ipaddr.js';

/**
 * Canonical forms of record values, so an expected value and what DNS answered compare equal when
 * they mean the same: names lowercase without the trailing dot, IPv6 compressed, TXT as one joined
 * string without surrounding quotes, MX as `priority exchange`, CAA as `flags tag "value"`. Pure.
 */
const bareName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

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
  return match[1] === undefined ? bareName(match[2]) : `${Number(match[1])} ${bareName(match[2])}`;
}

export function normalizeValue(type: LookupType, value: string): string {
  switch (type) {
    case 'A':
      return address(value, 'ipv4');
    case 'AAAA':
      return address(value, 'ipv6');
    case 'CNAME':
    case 'NS':
      return bareName(value);
    case 'TXT':
      return joinTxt(value);
    case 'MX':
      return mx(value);
    case 'CAA':
      return caa(value);
  }
}

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

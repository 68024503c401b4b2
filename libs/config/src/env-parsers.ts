import { canonicalHostname } from '@app/kernel';
import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/** Thrown for one bad variable; the message is the whole line printed at start. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

const show = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);

/** The raw value, or undefined when unset or blank. */
export function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got ${show(value)})`);
  }
  return Number(value);
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, `must be true or false (got ${show(value)})`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got ${show(value)})`);
  }
  return value as T;
}

export function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL (got ${show(value)})`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')} (got ${show(parsed.protocol)})`);
  }
  return value;
}

/** Comma-separated URLs, e.g. NATS_URL=nats://a:4222,nats://b:4222. */
export function urlList(env: Env, name: string, protocols: readonly string[]): string[] | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  return list(value).map((item) => url({ [name]: item }, name, protocols) as string);
}

export function secret(env: Env, name: string, minLength: number): string | undefined {
  const value = raw(env, name);
  if (value !== undefined && value.length < minLength) {
    throw new ConfigError(name, `must be at least ${minLength} characters long`);
  }
  return value;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export function hostname(env: Env, name: string, fallback: string): string {
  const given = raw(env, name);
  const value = given === undefined ? undefined : canonicalHostname(given);
  if (value === undefined) return fallback;
  if (!HOSTNAME.test(value)) {
    throw new ConfigError(name, `must be a fully qualified hostname (got ${show(value)})`);
  }
  return value;
}

export function ipv4List(env: Env, name: string, fallback: string[]): string[] {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const items = list(value);
  for (const item of items) {
    if (isIP(item) !== 4) throw new ConfigError(name, `must list IPv4 addresses (got ${show(item)})`);
  }
  return items;
}

/** Resolvers as `ip` or `ip:port` (`[v6]:port` for IPv6). */
export function resolverList(env: Env, name: string): string[] {
  const value = raw(env, name);
  if (value === undefined) return [];
  const items = list(value);
  for (const item of items) {
    const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(item) ?? /^([^:]+)(?::(\d+))?$/.exec(item);
    const ip = match?.[1] ?? item;
    const port = match?.[2];
    if (!isIP(ip) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new ConfigError(name, `must list resolvers as ip or ip:port (got ${show(item)})`);
    }
  }
  return items;
}

export function cidrList(env: Env, name: string): string[] {
  const value = raw(env, name);
  if (value === undefined) return [];
  const items = list(value);
  for (const item of items) {
    try {
      ipaddr.parseCIDR(item);
    } catch {
      throw new ConfigError(name, `must list CIDR ranges such as 10.0.0.0/8 (got ${show(item)})`);
    }
  }
  return items;
}

/** `Name=ip[:port]` items (name optional: the address is shown instead), e.g. `Cloudflare=1.1.1.1`. */
export function namedResolverList(env: Env, name: string, fallback: string): { name: string; address: string }[] {
  const value = raw(env, name) ?? fallback;
  const items = list(value).map((item) => {
    const eq = item.indexOf('=');
    const label = eq === -1 ? undefined : item.slice(0, eq).trim();
    const address = (eq === -1 ? item : item.slice(eq + 1)).trim();
    if (label !== undefined && !/^[\w .()-]{1,40}$/.test(label)) {
      throw new ConfigError(name, `must name resolvers with 1-40 letters, digits, spaces, ._()- (got ${show(label)})`);
    }
    resolverList({ [name]: address }, name);
    return { name: label ?? address, address };
  });
  if (!items.length) throw new ConfigError(name, 'must list at least one resolver');
  return items;
}

export function portList(env: Env, name: string, fallback: string): number[] {
  const items = list(raw(env, name) ?? fallback);
  for (const item of items) {
    if (!/^\d+$/.test(item) || Number(item) < 1 || Number(item) > 65535) {
      throw new ConfigError(name, `must list ports from 1 to 65535 (got ${show(item)})`);
    }
  }
  if (!items.length) throw new ConfigError(name, 'must list at least one port');
  return [...new Set(items.map(Number))];
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

import { canonicalHostname } from '@app/kernel';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';

/** A hostname the service refuses; the API layer answers 400 bad_request with this message. */
export class HostnameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostnameError';
  }
}

export interface NormalizedHostname {
  /** Lowercase ASCII (punycode), no trailing dot. */
  hostname: string;
  /** True when the hostname is its own registrable domain (`example.com`), false for `shop.example.com`. */
  apex: boolean;
  /** The public-suffix-list registrable domain (ICANN section only), e.g. `example.co.uk`. */
  registrableDomain: string;
}

/** Special-use top-level names (RFC 6761, 6762, 7686, 8375, 9476) and the `.internal` TLD: never public. */
const SPECIAL_USE_TLDS = new Set([
  'localhost',
  'local',
  'internal',
  'test',
  'invalid',
  'example',
  'onion',
  'arpa',
  'alt',
]);
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** ASCII characters a hostname may contain before IDNA; anything else ASCII (`/`, `%`, `_`, `@`, space) is refused. */
const ASCII_ALLOWED = /^[a-z0-9.-]$/;
const TLDTS = { allowPrivateDomains: false } as const;

/** A name worth suggesting as-is. */
const ASCII_NAME = /^[a-z0-9.-]+$/;
const show = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);

/**
 * A URL where a bare name belongs (`https://shop.example.com`, `shop.example.com/`, `shop.example.com:443`):
 * the error that says what to leave out, with the name to send instead.
 */
function urlShapedMistake(value: string, input: string): HostnameError | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//.exec(value)?.[0];
  const rest = scheme ? value.slice(scheme.length) : value;
  const hostPart = rest.split(/[/?#]/)[0];
  // `user@` only after a scheme: alone, `user@example.com` is an e-mail address, not a URL.
  const name = scheme ? hostPart.replace(/^[^@]*@/, '') : hostPart;
  const bare = name.replace(/:\d*$/, '');
  const instead = `, e.g. ${show(bare && ASCII_NAME.test(bare) ? bare : 'shop.example.com')}`;
  if (scheme)
    return new HostnameError(`Hostname ${show(input)} includes the scheme ${show(scheme)}: leave it out${instead}`);
  if (hostPart.length < rest.length) {
    return new HostnameError(
      `Hostname ${show(input)} includes a path: send the name alone, without "/" and what follows${instead}`,
    );
  }
  if (bare !== name)
    return new HostnameError(
      `Hostname ${show(input)} includes a port: leave out ${show(name.slice(bare.length))}${instead}`,
    );
  return undefined;
}
/** Trim, lowercase, strip one trailing dot; refuse characters IDNA would silently rewrite (`a/b.com` -> `a`). */
function prepare(input: string): string {
  const value = canonicalHostname(input);
  if (!value) throw new HostnameError('Hostname is required');
  if (value.length > 1024) throw new HostnameError('Hostname must be at most 253 characters long');
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  if (isIP(bare)) throw new HostnameError(`Hostname ${show(input)} is an IP address; use a domain name`);
  const urlShaped = urlShapedMistake(value, input);
  if (urlShaped) throw urlShaped;
  for (const char of value) {
    if (char.charCodeAt(0) < 128 && !ASCII_ALLOWED.test(char)) {
      throw new HostnameError(
        `Hostname ${show(input)} contains the character ${show(char)}; use letters, digits, hyphens and dots`,
      );
    }
  }
  return value;
}

/** The ASCII form of a syntactically valid, non-IP name. */
function canonical(input: string, minLength: number): string {
  const ascii = domainToASCII(prepare(input));
  if (!ascii) throw new HostnameError(`Hostname ${show(input)} is not a valid domain name`);
  if (isIP(ascii)) throw new HostnameError(`Hostname ${show(input)} is an IP address; use a domain name`);
  if (ascii.length < minLength || ascii.length > 253) {
    throw new HostnameError(`Hostname ${show(input)} must be ${minLength} to 253 characters long`);
  }
  for (const label of ascii.split('.')) {
    if (!LABEL.test(label)) {
      throw new HostnameError(
        `Hostname ${show(input)} has an invalid label ${show(label)}: labels are 1-63 letters, digits or hyphens, not starting or ending with a hyphen`,
      );
    }
  }
  return ascii;
}

/** The registrable domain of a public name: refuses special-use names, single labels and public suffixes. */
function registrableOf(hostname: string, input: string): string {
  const labels = hostname.split('.');
  if (SPECIAL_USE_TLDS.has(labels[labels.length - 1])) {
    throw new HostnameError(`Hostname ${show(input)} is under a reserved special-use name and cannot be public`);
  }
  if (labels.length < 2)
    throw new HostnameError(`Hostname ${show(input)} must be a full domain name like shop.example.com`);
  const domain = parse(hostname, TLDTS).domain;
  if (!domain) throw new HostnameError(`Hostname ${show(input)} is a public suffix; use a domain registered under it`);
  return domain;
}

/** Whether `hostname` is the service's own edge name, its registrable domain, or anything under it. */
function isEdgeHostname(hostname: string, edgeCnameTarget: string): boolean {
  const edge = canonicalHostname(edgeCnameTarget);
  if (!edge) return false;
  const zone = parse(edge, TLDTS).domain ?? edge;
  return [edge, zone].some((name) => hostname === name || hostname.endsWith(`.${name}`));
}

/** With private entries: `github.io` is a public suffix here, so `*.github.io` is refused. */
const TLDTS_ALL = { allowPrivateDomains: true } as const;

/**
 * `*.<name>`: one leading `*` label over a name that is not a public suffix, ICANN or private
 * (`*.com`, `*.co.uk` and `*.github.io` would claim names that belong to others).
 */
function normalizeWildcard(input: string, opts: { edgeCnameTarget: string }): NormalizedHostname {
  const rest = input.trim().slice(2);
  if (rest.includes('*'))
    throw new HostnameError(`Hostname ${show(input)} may hold one "*", as its whole first label (*.example.com)`);
  const ascii = about(input, () => canonical(rest, 1));
  const labels = ascii.split('.');
  const special = SPECIAL_USE_TLDS.has(labels[labels.length - 1]);
  if (!special && (labels.length < 2 || !parse(ascii, TLDTS_ALL).domain))
    throw new HostnameError(`Hostname ${show(input)} covers a public suffix; use a wildcard under a registered domain`);
  const base = about(input, () => normalizeHostname(ascii, opts));
  if (base.hostname.length + 2 > 253)
    throw new HostnameError(`Hostname ${show(input)} must be at most 253 characters long`);
  return { hostname: `*.${base.hostname}`, apex: false, registrableDomain: base.registrableDomain };
}

/** A refusal of a wildcard's base name, said of the wildcard the customer sent. */
function about<T>(input: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof HostnameError)) throw error;
    throw new HostnameError(`Hostname ${show(input)}: ${error.message.replace(/^Hostname /, 'its name ')}`);
  }
}

/**
 * Validates and normalizes a hostname a customer wants to connect (SPEC 2.1). Throws HostnameError.
 * `wildcards`: whether `*.example.com` is accepted (only where DNS-01 can issue its certificate).
 */
export function normalizeHostname(
  input: string,
  opts: { edgeCnameTarget: string; wildcards?: boolean },
): NormalizedHostname {
  if (input.trim().startsWith('*.')) {
    if (!opts.wildcards) {
      throw new HostnameError(
        `Hostname ${show(input)} is a wildcard; this service does not connect wildcard hostnames (no DNS-01 challenge zone is set up)`,
      );
    }
    return normalizeWildcard(input, { edgeCnameTarget: opts.edgeCnameTarget });
  }
  const hostname = canonical(input, 1);
  if (isEdgeHostname(hostname, opts.edgeCnameTarget)) {
    throw new HostnameError(`Hostname ${show(input)} belongs to this service and cannot be connected`);
  }
  const registrableDomain = registrableOf(hostname, input);
  return { hostname, apex: hostname === registrableDomain, registrableDomain };
}

/** Validates a domain to buy: 3-253 characters and exactly a registrable domain (`example.com`, not `www.example.com`). */
export function normalizePurchaseHostname(input: string): NormalizedHostname {
  const hostname = canonical(input, 3);
  const registrableDomain = registrableOf(hostname, input);
  if (registrableDomain !== hostname) {
    throw new HostnameError(`Domain ${show(input)} is a subdomain; only ${registrableDomain} itself can be registered`);
  }
  return { hostname, apex: true, registrableDomain };
}

/**
 * Validates a name to diagnose (the keyless tools, record checks): any public DNS name of two or
 * more labels, public suffixes included (`co.uk` has NS records worth looking at), special-use names not.
 */
export function normalizeLookupHostname(input: string): string {
  const hostname = canonical(input, 1);
  const labels = hostname.split('.');
  if (SPECIAL_USE_TLDS.has(labels[labels.length - 1])) {
    throw new HostnameError(`Hostname ${show(input)} is under a reserved special-use name and cannot be public`);
  }
  if (labels.length < 2)
    throw new HostnameError(`Hostname ${show(input)} must be a full domain name like shop.example.com`);
  return hostname;
}

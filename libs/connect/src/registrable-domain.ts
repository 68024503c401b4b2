import { canonicalHostname } from '@app/kernel';
import { getDomain } from 'tldts';

/** The public-suffix-list registrable domain (ICANN section only), or the name itself when it has none. */
export function registrableDomain(hostname: string): string {
  const name = canonicalHostname(hostname);
  return getDomain(name, { allowPrivateDomains: false }) ?? name;
}

/** The names from `hostname` up to its registrable domain, most specific first. */
export function namesUpToRegistrable(hostname: string): string[] {
  const name = canonicalHostname(hostname);
  const top = registrableDomain(name);
  const names: string[] = [];
  let current = name;
  while (current.length >= top.length) {
    names.push(current);
    if (current === top) break;
    current = current.slice(current.indexOf('.') + 1);
  }
  return names;
}

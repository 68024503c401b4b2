import { parse } from 'tldts';

/** A registrable name split the way registrars want it: `example.co.uk` is SLD `example`, TLD `co.uk`. */
export interface DomainName {
  hostname: string;
  sld: string;
  tld: string;
}

/** The split of a registrable domain (public suffix list, ICANN section), or undefined for anything else. */
export function splitDomain(hostname: string): DomainName | undefined {
  const name = hostname.trim().toLowerCase();
  const parsed = parse(name, { allowPrivateDomains: false });
  if (parsed.isIp || parsed.domain !== name || !parsed.publicSuffix || !parsed.domainWithoutSuffix) return undefined;
  return { hostname: name, sld: parsed.domainWithoutSuffix, tld: parsed.publicSuffix };
}

/** The challenge zone as the answer logic sees it. */
export interface ZoneSettings {
  /** Lowercase, without trailing dot: `acme.custom-domains.example`. */
  zone: string;
  /** NS names of the zone; the first is the SOA's primary (mname). */
  nameservers: readonly string[];
}

/** Lowercase, without the trailing dot: the form of `acme_dns_challenges.name`. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** The zone itself or a name below it (`canonical` already lowercased). */
export function inZone(canonical: string, zone: string): boolean {
  return canonical === zone || canonical.endsWith(`.${zone}`);
}

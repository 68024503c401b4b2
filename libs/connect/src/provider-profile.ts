/** How a DNS provider's record editor wants a record's name. */
interface RecordNameStyle {
  /** What to type for the zone apex: `@`, or `''` where the editor wants the field left empty. */
  apex: '@' | '';
  /**
   * `relative`: the label relative to the zone (`shop` for shop.example.com); the editor appends
   * the domain itself. `fqdn`: the full name (`shop.example.com`).
   */
  style: 'relative' | 'fqdn';
}

/**
 * Whether a name at the zone apex can point at our edge by name:
 * `flattening`: a plain CNAME at the apex, which the provider answers as A/AAAA (CNAME flattening);
 * `alias`: a provider-specific ALIAS/ANAME record type to an arbitrary hostname;
 * `none`: only A records (or ALIAS to the provider's own resources only).
 */
type ApexCnameSupport = 'flattening' | 'alias' | 'none';

/** One DNS provider as the connect instructions present it. Pure data. */
export interface ProviderProfile {
  id: string;
  name: string;
  /** Nameserver hostnames that identify the provider (lowercase, without trailing dot). */
  nameservers: {
    /** Matched at a label boundary: `ns.cloudflare.com` matches `ada.ns.cloudflare.com`. */
    suffixes: string[];
    /** Matched against the start of any label: `awsdns-` matches `ns-1.awsdns-07.net`. */
    labelPrefixes?: string[];
  };
  /** The record editor; `{domain}` is replaced by the zone (registrable domain). */
  dashboardUrl: string;
  recordName: RecordNameStyle;
  apexCname: ApexCnameSupport;
  /** The record type to choose in the editor for `alias` apex support (e.g. `ALIAS`, `ANAME`). */
  aliasRecordType?: string;
  /** The TTL to enter, in seconds, and how the editor labels it when that differs from seconds. */
  ttl: number;
  ttlLabel?: string;
  /** What the editor calls the fields. */
  fields: { name: string; value: string };
  /** How to reach the record editor; `{domain}` is replaced by the zone. */
  steps: string[];
  /** Gotchas of this provider's editor. */
  quirks: string[];
  propagation: string;
}

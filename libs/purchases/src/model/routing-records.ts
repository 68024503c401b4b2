/** The record types that route a name (DESIGN decision 2): only these are rewritten at `@` and `www`. */
const ROUTING_TYPES = new Set(['A', 'AAAA', 'CNAME', 'ALIAS']);
const ROUTED_NAMES = new Set(['@', 'www']);
const ROUTING_TTL = 1800;

/**
 * A record of a zone as this rule sees it. Structural, so the model owns its vocabulary and the
 * registrar port's records (RegistrarDnsRecord) fit it without the model importing an adapter.
 */
export interface ZoneRecord {
  type: string;
  name: string;
  value: string;
  ttl: number;
}

/** The records this rule writes: the edge's A records at `@` and its CNAME at `www`. */
export interface RoutingRecord extends ZoneRecord {
  type: 'A' | 'CNAME';
}

export interface EdgeTarget {
  cnameTarget: string;
  ipv4: string[];
}

/**
 * The registrar's records with the routing records at `@` and `www` replaced by the service's:
 * A records to the edge at the apex (an apex CNAME is refused by many TLDs, SPEC 4.3 rule 7) and a
 * CNAME at www. Every other record (MX, TXT, other names) is kept as it was.
 */
export function mergeRoutingRecords<R extends ZoneRecord>(current: R[], edge: EdgeTarget): (R | RoutingRecord)[] {
  const kept = current.filter((r) => !(ROUTED_NAMES.has(r.name) && ROUTING_TYPES.has(r.type)));
  const apex: RoutingRecord[] = edge.ipv4.map((value) => ({ type: 'A', name: '@', value, ttl: ROUTING_TTL }));
  return [...kept, ...apex, { type: 'CNAME', name: 'www', value: edge.cnameTarget, ttl: ROUTING_TTL }];
}

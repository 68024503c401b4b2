import type * as dnsPacket from 'dns-packet';
import type { ZoneSettings } from './zone-names';

/** A challenge value is read once by the CA: resolvers keep it only briefly. */
const TXT_TTL = 10;
/** RFC 2308: a NODATA answer is cached for min(SOA TTL, SOA minimum), so a value published next is seen soon. */
const NEGATIVE_TTL = 5;
const NS_TTL = 3_600;

/** The zone's SOA; the serial is the time in seconds (the zone has no secondaries to compare serials). */
export function soaRecord(name: string, zone: ZoneSettings, now: number): dnsPacket.Answer {
  return {
    name,
    type: 'SOA',
    ttl: NEGATIVE_TTL,
    data: {
      mname: zone.nameservers[0],
      rname: `hostmaster.${zone.zone}`,
      serial: Math.floor(now / 1_000) >>> 0,
      refresh: 3_600,
      retry: 600,
      expire: 86_400,
      minimum: NEGATIVE_TTL,
    },
  };
}

export function nsRecords(name: string, zone: ZoneSettings): dnsPacket.Answer[] {
  return zone.nameservers.map((data) => ({ name, type: 'NS', ttl: NS_TTL, data }));
}

/** One TXT record per value; a value longer than 255 octets is split into strings as RFC 1035 requires. */
export function txtRecord(name: string, value: string): dnsPacket.Answer {
  return { name, type: 'TXT', ttl: TXT_TTL, data: value.match(/[\s\S]{1,255}/g) ?? [''] };
}

/** RFC 8482: ANY is answered with one synthesized HINFO instead of everything the name holds. */
export function anyRecord(name: string): dnsPacket.Answer {
  return { name, type: 'HINFO', ttl: NS_TTL, data: { cpu: 'RFC8482', os: '' } };
}

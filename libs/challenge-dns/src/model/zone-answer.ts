import * as dnsPacket from 'dns-packet';
import { QueryOutcome, RCODE } from './rcodes';
import { canonicalName, inZone, ZoneSettings } from './zone-names';
import { anyRecord, nsRecords, soaRecord, txtRecord } from './zone-records';

/** A TXT value of a challenge in flight, with the time (ms) after which it must not be answered. */
export interface LiveValue {
  value: string;
  expiresAt: number;
}

/** The live values at a canonical name (possibly expired ones: the answer checks the time). */
export type LiveValues = (name: string) => readonly LiveValue[];

export interface ZoneAnswer {
  response: dnsPacket.Packet;
  outcome: QueryOutcome;
}

/** The UDP payload size we advertise and never exceed (the DNS flag day 2020 value). */
export const OUR_UDP_SIZE = 1232;
const OPCODE_BITS = 0x7800;
const QUERY_OPCODE = 0;

/**
 * The response of an authoritative-only server for one zone: TXT values of live challenges, SOA
 * and NS at the apex, NODATA with the SOA for every other name or type in the zone, REFUSED
 * outside it. It never recurses (RA is never set) and never answers an expired value.
 */
export function answerQuery(
  query: dnsPacket.DecodedPacket,
  zone: ZoneSettings,
  live: LiveValues,
  now: number,
): ZoneAnswer {
  const flags = query.flags ?? 0;
  const reply = (
    rcode: number,
    outcome: QueryOutcome,
    body: Partial<dnsPacket.Packet> = {},
    aa = false,
  ): ZoneAnswer => ({
    outcome,
    response: {
      type: 'response',
      id: query.id,
      // The opcode and RD are copied from the query (RFC 1035 4.1.1); RA stays clear: no recursion here.
      flags:
        (flags & OPCODE_BITS) |
        (flags & dnsPacket.RECURSION_DESIRED) |
        (aa ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
        (rcode & 0xf),
      questions: body.questions ?? query.questions ?? [],
      answers: body.answers ?? [],
      authorities: body.authorities ?? [],
      additionals: body.additionals ?? [],
    },
  });
  if ((flags & OPCODE_BITS) >> 11 !== QUERY_OPCODE) return reply(RCODE.NOTIMP, 'notimp', { questions: [] });
  const opts = (query.additionals ?? []).filter((record): record is dnsPacket.OptAnswer => record.type === 'OPT');
  if (opts.length > 1 || (query.questions ?? []).length !== 1)
    return reply(RCODE.FORMERR, 'formerr', { questions: [] });
  const opt = opts[0];
  const edns = opt ? [ednsRecord(opt.ednsVersion > 0 ? RCODE.BADVERS : 0)] : [];
  if (opt && opt.ednsVersion > 0) return reply(RCODE.NOERROR, 'badvers', { additionals: edns });

  const [question] = query.questions!;
  const name = canonicalName(question.name);
  if (!inZone(name, zone.zone) || (question.class ?? 'IN') !== 'IN')
    return reply(RCODE.REFUSED, 'refused', { additionals: edns });
  // Answers carry the name exactly as asked, so a resolver's 0x20 case randomization matches.
  const asked = question.name;
  const authoritative = (answers: dnsPacket.Answer[]) =>
    answers.length
      ? reply(RCODE.NOERROR, 'answered', { answers, additionals: edns }, true)
      : reply(RCODE.NOERROR, 'nodata', { authorities: [soaRecord(zone.zone, zone, now)], additionals: edns }, true);
  const apex = name === zone.zone;
  switch (question.type as string) {
    case 'AXFR':
    case 'IXFR':
      return reply(RCODE.REFUSED, 'refused', { additionals: edns });
    case 'ANY':
      return authoritative([anyRecord(asked)]);
    case 'TXT':
      return authoritative(
        live(name)
          .filter((entry) => entry.expiresAt > now)
          .map((entry) => txtRecord(asked, entry.value)),
      );
    case 'SOA':
      return authoritative(apex ? [soaRecord(asked, zone, now)] : []);
    case 'NS':
      return authoritative(apex ? nsRecords(asked, zone) : []);
    default:
      return authoritative([]);
  }
}

/** Our OPT record; an extended rcode (BADVERS) goes in its upper 8 bits (RFC 6891 6.1.3). */
function ednsRecord(extendedRcode: number): dnsPacket.Answer {
  return {
    type: 'OPT',
    name: '.',
    udpPayloadSize: OUR_UDP_SIZE,
    extendedRcode: extendedRcode >> 4,
    ednsVersion: 0,
    flags: 0,
    options: [],
  } as unknown as dnsPacket.Answer;
}

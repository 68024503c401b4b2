import * as dnsPacket from 'dns-packet';
import { RCODE } from './rcodes';
import { OUR_UDP_SIZE } from './zone-answer';

const HEADER_BYTES = 12;
const QR_BIT = 0x80;
/** Without EDNS a UDP answer is at most 512 octets (RFC 1035 4.2.1). */
const CLASSIC_UDP_SIZE = 512;

export type ReadQuery =
  | { kind: 'query'; query: dnsPacket.DecodedPacket }
  /** A header we can answer but a body we cannot parse: FORMERR with the query's id. */
  | { kind: 'formerr'; response: Buffer }
  /** Too short to answer, or a response (answering it could loop two servers): silence. */
  | { kind: 'drop' };

export function readQuery(bytes: Buffer): ReadQuery {
  if (bytes.length < HEADER_BYTES || (bytes[2] & QR_BIT) !== 0) return { kind: 'drop' };
  try {
    return { kind: 'query', query: dnsPacket.decode(bytes) };
  } catch {
    const response = Buffer.alloc(HEADER_BYTES);
    bytes.copy(response, 0, 0, 2);
    // QR set, the query's opcode and RD kept, FORMERR.
    response[2] = QR_BIT | (bytes[2] & 0x79);
    response[3] = RCODE.FORMERR;
    return { kind: 'formerr', response };
  }
}

/** The largest UDP answer the client accepts: its EDNS size within [512, ours], else 512. */
export function udpLimit(query: dnsPacket.DecodedPacket): number {
  const opt = query.additionals?.find((record): record is dnsPacket.OptAnswer => record.type === 'OPT');
  if (!opt) return CLASSIC_UDP_SIZE;
  return Math.max(CLASSIC_UDP_SIZE, Math.min(opt.udpPayloadSize, OUR_UDP_SIZE));
}

/**
 * The encoded response; when larger than `limit` (UDP), the same header with TC set, the
 * question and EDNS kept and no records, so the client asks again over TCP.
 */
export function encodeResponse(response: dnsPacket.Packet, limit = Infinity): { bytes: Buffer; truncated: boolean } {
  const bytes = dnsPacket.encode(response);
  if (bytes.length <= limit) return { bytes, truncated: false };
  const flags = (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE;
  return { bytes: dnsPacket.encode({ ...response, flags, answers: [], authorities: [] }), truncated: true };
}

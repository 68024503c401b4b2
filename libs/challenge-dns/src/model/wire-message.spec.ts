import * as dnsPacket from 'dns-packet';
import { encodeResponse, readQuery, udpLimit } from './wire-message';

const question = { name: 'c1.acme.example.net', type: 'TXT' as const, class: 'IN' as const };
const queryBytes = (additionals: dnsPacket.Answer[] = []) =>
  dnsPacket.encode({ type: 'query', id: 7, questions: [question], additionals });
const edns = (udpPayloadSize: number) => ({ type: 'OPT', name: '.', udpPayloadSize }) as unknown as dnsPacket.Answer;
const decoded = (bytes: Buffer) => {
  const read = readQuery(bytes);
  if (read.kind !== 'query') throw new Error(read.kind);
  return read.query;
};

describe('readQuery', () => {
  it('decodes a query', () => {
    expect(decoded(queryBytes()).questions).toEqual([question]);
  });

  it('stays silent to responses (no loops between servers) and to fragments shorter than a header', () => {
    const response = dnsPacket.encode({ type: 'response', id: 7, questions: [question] });
    expect(readQuery(response)).toEqual({ kind: 'drop' });
    expect(readQuery(Buffer.from([1, 2, 3]))).toEqual({ kind: 'drop' });
  });

  it('answers FORMERR with the id, opcode and RD of a header whose body does not parse', () => {
    const garbage = Buffer.concat([Buffer.from([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]), Buffer.from([63])]);
    const read = readQuery(garbage);
    if (read.kind !== 'formerr') throw new Error(read.kind);
    const answer = dnsPacket.decode(read.response);
    expect([
      answer.id,
      answer.type,
      (answer as unknown as { rcode: string }).rcode,
      answer.flag_rd,
      answer.flag_ra,
    ]).toEqual([0x1234, 'response', 'FORMERR', true, false]);
  });
});

describe('udpLimit and encodeResponse', () => {
  it('takes the client EDNS size within [512, 1232], 512 without EDNS', () => {
    expect(udpLimit(decoded(queryBytes()))).toBe(512);
    expect(udpLimit(decoded(queryBytes([edns(4096)])))).toBe(1232);
    expect(udpLimit(decoded(queryBytes([edns(100)])))).toBe(512);
    expect(udpLimit(decoded(queryBytes([edns(900)])))).toBe(900);
  });

  it('truncates (TC, no records, question kept) a response over the limit, not one within it', () => {
    const answers = Array.from({ length: 20 }, (_, i) => ({
      name: question.name,
      type: 'TXT' as const,
      ttl: 10,
      data: [`${i}-${'v'.repeat(43)}`],
    }));
    const response: dnsPacket.Packet = { type: 'response', id: 7, flags: 0x400, questions: [question], answers };
    const whole = encodeResponse(response, 65_535);
    expect(whole.truncated).toBe(false);
    expect(whole.bytes.length).toBeGreaterThan(512);
    const cut = encodeResponse(response, 512);
    const client = dnsPacket.decode(cut.bytes);
    expect([cut.truncated, client.flag_tc, client.flag_aa, client.answers, client.questions]).toEqual([
      true,
      true,
      true,
      [],
      [question],
    ]);
  });
});

import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { answerQuery, LiveValue } from './zone-answer';
import { encodeResponse } from './wire-message';

const zone = { zone: 'acme.example.net', nameservers: ['edge.example.net', 'edge2.example.net'] };
const now = Date.parse('2026-11-27T12:00:00Z');
const live = new Map<string, LiveValue[]>([
  [
    'c1.acme.example.net',
    [
      { value: 'value-for-the-wildcard', expiresAt: now + 60_000 },
      { value: 'value-for-the-base-name', expiresAt: now + 60_000 },
    ],
  ],
  [
    'mixed.acme.example.net',
    [
      { value: 'gone', expiresAt: now },
      { value: 'kept', expiresAt: now + 1 },
    ],
  ],
  ['old.acme.example.net', [{ value: 'expired', expiresAt: now - 1 }]],
  ['long.acme.example.net', [{ value: 'x'.repeat(300), expiresAt: now + 60_000 }]],
]);
const values = (name: string) => live.get(name) ?? [];

/** A query as it arrives: encoded, then decoded as the listener does. */
function query(name: string, type: string, extra: Partial<dnsPacket.Packet> = {}): dnsPacket.DecodedPacket {
  return dnsPacket.decode(
    dnsPacket.encode({
      type: 'query',
      id: 4242,
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ name, type: type as dnsPacket.RecordType, class: 'IN' }],
      ...extra,
    }),
  );
}

/** The answer as a client decodes it. */
function ask(q: dnsPacket.DecodedPacket, at = now) {
  const { response, outcome } = answerQuery(q, zone, values, at);
  const decoded = dnsPacket.decode(encodeResponse(response).bytes);
  return { outcome, decoded, rcode: (decoded as unknown as { rcode: string }).rcode };
}
const txt = (answer: dnsPacket.Answer) =>
  ((answer as dnsPacket.TxtAnswer).data as Buffer[]).map((chunk) => chunk.toString()).join('');
const opt = (edns: Partial<dnsPacket.OptAnswer>) =>
  ({ type: 'OPT', name: '.', udpPayloadSize: 4096, ...edns }) as unknown as dnsPacket.Answer;

describe('answerQuery: the challenge zone', () => {
  it('answers every live TXT value of a name as its own record, authoritative, TTL 10, the name as asked (0x20)', () => {
    const { decoded, rcode, outcome } = ask(query('C1.AcMe.Example.NET', 'TXT'));
    expect([rcode, outcome, decoded.id]).toEqual(['NOERROR', 'answered', 4242]);
    expect(decoded.flag_aa).toBe(true);
    expect(decoded.questions).toEqual([{ name: 'C1.AcMe.Example.NET', type: 'TXT', class: 'IN' }]);
    expect(decoded.answers!.map((a) => [a.name, a.type, (a as dnsPacket.TxtAnswer).ttl, txt(a)])).toEqual([
      ['C1.AcMe.Example.NET', 'TXT', 10, 'value-for-the-wildcard'],
      ['C1.AcMe.Example.NET', 'TXT', 10, 'value-for-the-base-name'],
    ]);
  });

  it('never answers an expired value, judged at answer time', () => {
    expect(ask(query('old.acme.example.net', 'TXT')).decoded.answers).toEqual([]);
    expect(ask(query('mixed.acme.example.net', 'TXT')).decoded.answers!.map(txt)).toEqual(['kept']);
    const later = ask(query('c1.acme.example.net', 'TXT'), now + 60_000);
    expect([later.outcome, later.decoded.answers]).toEqual(['nodata', []]);
  });

  it('splits a value longer than 255 octets into strings of one record', () => {
    const [answer] = ask(query('long.acme.example.net', 'TXT')).decoded.answers!;
    expect(((answer as dnsPacket.TxtAnswer).data as Buffer[]).map((chunk) => chunk.length)).toEqual([255, 45]);
  });

  it.each([
    ['a name of the zone without values', 'nothing.acme.example.net', 'TXT'],
    ['a challenge name asked for another type', 'c1.acme.example.net', 'A'],
    ['NS below the apex', 'c1.acme.example.net', 'NS'],
    ['SOA below the apex', 'deep.c1.acme.example.net', 'SOA'],
    ['TXT at the apex', 'acme.example.net', 'TXT'],
    ['AAAA at the apex', 'acme.example.net', 'AAAA'],
  ])('answers NODATA with the SOA (negative TTL 5) for %s', (_what, name, type) => {
    const { decoded, rcode, outcome } = ask(query(name, type));
    expect([rcode, outcome, decoded.flag_aa, decoded.answers]).toEqual(['NOERROR', 'nodata', true, []]);
    const [soa] = decoded.authorities as dnsPacket.SoaAnswer[];
    expect(soa).toMatchObject({ name: 'acme.example.net', type: 'SOA', ttl: 5 });
    expect(soa.data).toMatchObject({
      mname: 'edge.example.net',
      rname: 'hostmaster.acme.example.net',
      serial: Math.floor(now / 1000),
      minimum: 5,
    });
  });

  it('answers SOA and NS (the configured nameservers) at the apex', () => {
    const soa = ask(query('ACME.example.net', 'SOA')).decoded;
    expect(soa.answers).toEqual([expect.objectContaining({ name: 'ACME.example.net', type: 'SOA' })]);
    expect(soa.flag_aa).toBe(true);
    const ns = ask(query('acme.example.net', 'NS')).decoded;
    expect(ns.answers!.map((a) => (a as dnsPacket.StringAnswer).data)).toEqual([
      'edge.example.net',
      'edge2.example.net',
    ]);
  });

  it('answers ANY as RFC 8482 allows: one synthesized HINFO, not the values', () => {
    const { decoded, outcome } = ask(query('c1.acme.example.net', 'ANY'));
    expect(outcome).toBe('answered');
    expect(decoded.answers).toEqual([expect.objectContaining({ type: 'HINFO', data: { cpu: 'RFC8482', os: '' } })]);
  });

  it.each([
    ['a name elsewhere, with recursion desired', 'www.example.com', 'A'],
    ['the parent of the zone', 'example.net', 'TXT'],
    ['a look-alike that only ends with the zone', 'c1.notacme.example.net', 'TXT'],
    ['the root', '.', 'NS'],
    ['a zone transfer at the apex (AXFR)', 'acme.example.net', 'AXFR'],
    ['an incremental transfer (IXFR)', 'acme.example.net', 'IXFR'],
  ])('refuses %s: REFUSED, no records, not authoritative, no recursion', (_what, name, type) => {
    const { decoded, rcode, outcome } = ask(query(name, type));
    expect([rcode, outcome]).toEqual(['REFUSED', 'refused']);
    expect([decoded.flag_aa, decoded.flag_ra, decoded.answers, decoded.authorities]).toEqual([false, false, [], []]);
  });

  it('refuses another class (CHAOS version.bind) at a name of the zone', () => {
    const q = dnsPacket.decode(
      dnsPacket.encode({
        type: 'query',
        id: 1,
        questions: [{ name: 'c1.acme.example.net', type: 'TXT', class: 'CH' }],
      }),
    );
    expect(ask(q).rcode).toBe('REFUSED');
  });

  it('answers NOTIMP to another opcode (NOTIFY, UPDATE), with the opcode kept', () => {
    for (const opcode of [4, 5]) {
      const q = query('acme.example.net', 'SOA', { flags: opcode << 11 });
      const { decoded, rcode } = ask(q);
      expect([rcode, (decoded as unknown as { opcode: string }).opcode]).toEqual([
        'NOTIMP',
        opcode === 4 ? 'NOTIFY' : 'UPDATE',
      ]);
      expect(decoded.answers).toEqual([]);
    }
  });

  it('answers FORMERR to zero or several questions, and to two OPT records', () => {
    expect(ask(query('x', 'TXT', { questions: [] })).rcode).toBe('FORMERR');
    const two = query('c1.acme.example.net', 'TXT', {
      questions: [
        { name: 'c1.acme.example.net', type: 'TXT' },
        { name: 'c1.acme.example.net', type: 'TXT' },
      ],
    });
    expect(ask(two)).toMatchObject({ rcode: 'FORMERR', outcome: 'formerr', decoded: { answers: [] } });
    expect(ask(query('c1.acme.example.net', 'TXT', { additionals: [opt({}), opt({})] })).rcode).toBe('FORMERR');
  });

  it('echoes EDNS with our size (1232) whatever the client offers, and none without it', () => {
    const withEdns = ask(
      query('c1.acme.example.net', 'TXT', { additionals: [opt({ udpPayloadSize: 65000 })] }),
    ).decoded;
    expect(withEdns.additionals).toEqual([expect.objectContaining({ type: 'OPT', udpPayloadSize: 1232 })]);
    expect(ask(query('c1.acme.example.net', 'TXT')).decoded.additionals).toEqual([]);
  });

  it('answers BADVERS to an EDNS version it does not speak (RFC 6891)', () => {
    const { decoded, outcome } = ask(query('c1.acme.example.net', 'TXT', { additionals: [opt({ ednsVersion: 1 })] }));
    expect(outcome).toBe('badvers');
    expect(decoded.answers).toEqual([]);
    expect(decoded.additionals).toEqual([expect.objectContaining({ type: 'OPT', extendedRcode: 1 })]);
  });

  it('copies RD but never sets RA (property: any name, type, flags)', () => {
    const label = fc.stringMatching(/^[a-zA-Z0-9-]{1,20}$/);
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.constantFrom('TXT', 'A', 'NS', 'SOA', 'ANY', 'AXFR', 'MX'),
        fc.integer({ min: 0, max: 0xffff }),
        (labels, underZone, type, flags) => {
          const name = underZone ? `${labels.join('.')}.acme.example.net` : `${labels.join('.')}.example.org`;
          const { decoded, rcode } = ask(query(name, type, { flags: flags & ~0x8000 }));
          expect(decoded.flag_ra).toBe(false);
          expect(decoded.flag_rd).toBe((flags & dnsPacket.RECURSION_DESIRED) !== 0);
          if (!underZone && (flags & 0x7800) === 0) expect([rcode, decoded.answers]).toEqual(['REFUSED', []]);
        },
      ),
    );
  });
});

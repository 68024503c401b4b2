import { buildEnvelope, envelopeBody, serializeEvent, serializedEnvelopeBody, unixSeconds } from './envelope';

describe('event envelope', () => {
  const row = {
    id: 'evt_1',
    workspaceId: 'ws_1',
    type: 'domain.created',
    data: { domain: { id: 'dom_1', hostname: 'shop.example.com' } },
    createdAt: new Date('2026-11-21T10:00:00.123Z'),
  };

  it('has exactly id, type, createdAt, timestamp, workspaceId and data, in that order', () => {
    const envelope = buildEnvelope(row, 1_795_000_000);
    expect(Object.keys(envelope)).toEqual(['id', 'type', 'createdAt', 'timestamp', 'workspaceId', 'data']);
    expect(envelope).toEqual({
      id: 'evt_1',
      type: 'domain.created',
      createdAt: '2026-11-21T10:00:00.123Z',
      timestamp: 1_795_000_000,
      workspaceId: 'ws_1',
      data: { domain: { id: 'dom_1', hostname: 'shop.example.com' } },
    });
  });

  it('serializes to the bytes that are signed', () => {
    const body = envelopeBody(buildEnvelope(row, 5));
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ id: 'evt_1', timestamp: 5 });
  });

  it('builds the same bytes from a payload serialized once', () => {
    const body = serializedEnvelopeBody(serializeEvent(row), 1_795_000_000);
    expect(body.equals(envelopeBody(buildEnvelope(row, 1_795_000_000)))).toBe(true);
    const odd = { ...row, id: 'evt_"quoted"', data: { text: 'ünïcødé \u2028 </script>', n: [1, null] } };
    expect(serializedEnvelopeBody(serializeEvent(odd), 7).equals(envelopeBody(buildEnvelope(odd, 7)))).toBe(true);
  });

  it('counts unix seconds down, never up', () => {
    expect(unixSeconds(new Date(1_999))).toBe(1);
    expect(unixSeconds(new Date(2_000))).toBe(2);
  });
});

import { downstreamHeaders, plainAddress, upstreamHeaders } from './forwarded-headers';

const ctx = {
  clientIp: '198.51.100.7',
  proto: 'https' as const,
  originalHost: 'shop.example.com',
  host: 'origin.example',
};

describe('upstreamHeaders', () => {
  it('strips hop-by-hop fields and those named in Connection, sets the forwarding headers', () => {
    const out = upstreamHeaders(
      {
        host: 'shop.example.com',
        connection: 'keep-alive, X-Secret-Hop',
        'keep-alive': 'timeout=5',
        'x-secret-hop': '1',
        te: 'trailers',
        'transfer-encoding': 'chunked',
        'proxy-authorization': 'Basic abc',
        expect: '100-continue',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'spoofed.example',
        accept: 'text/html',
        cookie: 'a=1; b=2',
      },
      ctx,
    );
    expect(out).toEqual({
      host: 'origin.example',
      accept: 'text/html',
      cookie: 'a=1; b=2',
      'x-forwarded-for': '198.51.100.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'shop.example.com',
    });
  });

  it('appends to an existing X-Forwarded-For', () => {
    const out = upstreamHeaders({ 'x-forwarded-for': '203.0.113.1, 10.0.0.1' }, ctx);
    expect(out['x-forwarded-for']).toBe('203.0.113.1, 10.0.0.1, 198.51.100.7');
  });

  it('keeps the proto and host a trusted proxy set', () => {
    const out = upstreamHeaders(
      { 'x-forwarded-for': '203.0.113.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example.com' },
      { ...ctx, proto: 'http', clientIp: '127.0.0.1', trustedProxy: true },
    );
    expect(out).toMatchObject({
      'x-forwarded-for': '203.0.113.1, 127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'shop.example.com',
    });
  });

  it('keeps the upgrade of a WebSocket handshake', () => {
    const out = upstreamHeaders(
      { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'k' },
      { ...ctx, upgrade: 'websocket' },
    );
    expect(out).toMatchObject({ connection: 'upgrade', upgrade: 'websocket', 'sec-websocket-key': 'k' });
  });
});

describe('downstreamHeaders', () => {
  it('keeps repeated Set-Cookie and drops hop-by-hop fields', () => {
    expect(
      downstreamHeaders({
        'set-cookie': ['a=1', 'b=2'],
        connection: 'close',
        'transfer-encoding': 'chunked',
        'content-type': 'text/plain',
      }),
    ).toEqual({ 'set-cookie': ['a=1', 'b=2'], 'content-type': 'text/plain' });
  });
});

describe('plainAddress', () => {
  it('unwraps IPv4-mapped addresses', () => {
    expect(plainAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(plainAddress('::1')).toBe('::1');
    expect(plainAddress(undefined)).toBe('unknown');
  });
});

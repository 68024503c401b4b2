import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { Logger } from 'pino';
import pinoHttp from 'pino-http';
import { Writable } from 'node:stream';
import { pinoOptions } from './http-core.module';
import { logRequest } from './request-log';
import { registerLogSecret } from './secret-redaction';

function sink() {
  const lines: Record<string, any>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()) as Record<string, any>);
      done();
    },
  });
  return { stream, lines, raw };
}

function capture(level: string) {
  const { stream, lines } = sink();
  return { logger: pino({ level }, stream), lines };
}

/** The root logger exactly as every app builds it (HttpCoreModule: pino-http with our options). */
function appLogger(level = 'info') {
  const { stream, lines, raw } = sink();
  const logger = pinoHttp(pinoOptions({ logLevel: level, service: 'test' }), stream).logger as unknown as Logger;
  return { logger, lines, raw };
}

const answered = (method: string, url: string, statusCode = 200) =>
  [
    { id: 'req_1', method, url, headers: { authorization: 'Bearer sk_live_secret' } } as unknown as FastifyRequest,
    { statusCode, elapsedTime: 1.6 } as unknown as FastifyReply,
  ] as const;

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('logRequest', () => {
  it('writes one line per request at info: id, method, url, status and time, never the headers', async () => {
    const { logger, lines } = capture('info');
    logRequest(logger, ...answered('GET', '/v1/domains/dom_1', 404));
    await flush();
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        requestId: 'req_1',
        req: { method: 'GET', url: '/v1/domains/dom_1' },
        res: { statusCode: 404 },
        responseTime: 2,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('sk_live_secret');
  });

  it('writes nothing at warn', async () => {
    const { logger, lines } = capture('warn');
    logRequest(logger, ...answered('GET', '/v1/domains/dom_1'));
    await flush();
    expect(lines).toEqual([]);
  });

  it('leaves out health probes and metric scrapes', async () => {
    const { logger, lines } = capture('info');
    for (const url of ['/healthz', '/readyz', '/metrics']) logRequest(logger, ...answered('GET', url));
    await flush();
    expect(lines).toEqual([]);
  });

  it('redacts a token in the query string (the widget demo takes a connect-session token there)', async () => {
    const { logger, lines } = capture('info');
    logRequest(logger, ...answered('GET', '/widget/demo?token=cs_secret&x=1'));
    await flush();
    expect(lines[0].req.url).toBe('/widget/demo?token=[Redacted]&x=1');
  });

  it("the app's logger keeps the status (pino-http's response wrapper made it null on every line)", async () => {
    const { logger, lines } = appLogger();
    logRequest(logger, ...answered('GET', '/v1/domains/dom_1', 404));
    logRequest(logger, ...answered('POST', '/v1/domains', 500));
    await flush();
    expect(lines.map((l) => [l.req, l.res])).toEqual([
      [{ method: 'GET', url: '/v1/domains/dom_1' }, { statusCode: 404 }],
      [{ method: 'POST', url: '/v1/domains' }, { statusCode: 500 }],
    ]);
  });

  it("the app's logger still serializes errors (message, type, stack)", async () => {
    const { logger, lines } = appLogger();
    logger.error({ err: new TypeError('boom') }, 'failed');
    await flush();
    expect(lines[0].err).toMatchObject({ type: 'TypeError', message: 'boom', stack: expect.stringContaining('boom') });
  });

  it("the app's logger leaves out the fields where PostgreSQL quotes the data (detail, where)", async () => {
    const { logger, lines } = appLogger();
    const err = Object.assign(new Error('insert into t (a) values (?) - new row violates check constraint "c"'), {
      code: '23514',
      detail: 'Failing row contains (registrant@example.com).',
      where: 'JSON data, line 1: {"email":"registrant@example.com"',
    });
    logger.error({ err }, 'Snapshot write failed');
    await flush();
    expect(lines[0].err).toMatchObject({
      code: '23514',
      message: expect.stringContaining('violates check constraint'),
    });
    expect(JSON.stringify(lines[0])).not.toContain('registrant@example.com');
    expect(err.detail).toContain('registrant@example.com');
  });

  const secrets = {
    apiKey: 'sk_live_aqlyzilwDYdwLjyE5Ai2EJhMTrIE3CLs3F4YYDpbE20',
    webhookSecret: 'whsec_B5oEq5hwSRImusTX0QhUnnfsYgXv6qIPRGHf2VTQmxh',
    clientSecret: 'ocs_9fJ2kQ0aZx7Lm3Np5Rs8Tu1Vw4Xy6Zb2Cd5Ef8Gh1Ij',
    accessToken: 'oat_Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc3Vb5Nm7Qw9Er',
    session:
      'cs_eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ3cyI6IndzXzEiLCJkb20iOiJkb21fMSJ9.bm90LWEtcmVhbC1zaWduYXR1cmUtYXQtYWxs',
    idToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJlbWFpbCI6ImFAYi5jIn0.c2lnbmF0dXJlLXBhcnQ',
  };

  it('redacts secrets in the URL by name (token, access_token, api_key, client_secret, code, ...)', async () => {
    const { logger, lines } = capture('info');
    const urls = {
      '/widget/demo?token=cs_secret&x=1': '/widget/demo?token=[Redacted]&x=1',
      '/x?access_token=abc123&y=2': '/x?access_token=[Redacted]&y=2',
      '/x?api_key=abc123': '/x?api_key=[Redacted]',
      '/x?API_KEY=abc123#frag': '/x?API_KEY=[Redacted]#frag',
      '/oauth/token?client_id=oac_1&client_secret=hunter2hunter2':
        '/oauth/token?client_id=oac_1&client_secret=[Redacted]',
      '/console/sso/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj':
        '/console/sso/callback?code=[Redacted]&state=af0ifjsldkj',
      '/x?refresh_token=r&id_token=i&password=p&key=k':
        '/x?refresh_token=[Redacted]&id_token=[Redacted]&password=[Redacted]&key=[Redacted]',
      '/v1/domains?hostname=shop.example.com&limit=5': '/v1/domains?hostname=shop.example.com&limit=5',
    };
    for (const url of Object.keys(urls)) logRequest(logger, ...answered('GET', url));
    await flush();
    expect(lines.map((l) => l.req.url)).toEqual(Object.values(urls));
  });

  it('redacts our credentials by shape, wherever in the URL they are', async () => {
    const { logger, lines } = capture('info');
    for (const value of Object.values(secrets)) {
      logRequest(logger, ...answered('GET', `/v1/domains/${value}?q=${value}&hostname=${value}`));
    }
    await flush();
    const logged = JSON.stringify(lines);
    for (const value of Object.values(secrets)) expect(logged).not.toContain(value.slice(-20));
    expect(lines[0].req.url).toBe('/v1/domains/sk_live_[Redacted]?q=sk_live_[Redacted]&hostname=sk_live_[Redacted]');
    expect(lines[4].req.url).toMatch(/^\/v1\/domains\/cs_\[Redacted\]\?/);
  });

  it("keeps ids that only look alike (a session's jti, prefixed ids, short values)", async () => {
    const { logger, lines } = capture('info');
    const url = '/v1/domains/dom_7VaFMRoTN9PyYlFixHkoqR?jti=cs_AbCdEfGhIjKlMnOpQrStUv&k=sk_live_short';
    logRequest(logger, ...answered('GET', url));
    await flush();
    expect(lines[0].req.url).toBe(url);
  });

  it("the app's logger cuts secrets from every line: messages, fields, errors, registered values", async () => {
    const { logger, raw } = appLogger('debug');
    registerLogSecret('a-registered-admin-token-0123456789');
    const err = new Error(
      `request to https://hooks.example.com/in?api_key=plain-secret-value failed: ${secrets.apiKey}`,
    );
    logger.error({ err, note: `key ${secrets.webhookSecret}` }, `saw ${secrets.session} and ${secrets.accessToken}`);
    logger.debug({ clientSecret: secrets.clientSecret, id: secrets.idToken }, 'a-registered-admin-token-0123456789');
    await flush();
    const text = raw.join('');
    for (const value of [...Object.values(secrets), 'plain-secret-value', 'a-registered-admin-token-0123456789']) {
      expect(text).not.toContain(value);
    }
    expect(text).toContain('sk_live_[Redacted]');
  });
});

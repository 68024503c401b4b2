import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { logRequest } from './request-log';

function capture(level: string) {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, any>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
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
});

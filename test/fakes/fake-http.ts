import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body: any;
}

export type FakeHandler = (req: FakeRequest) => { status: number; body?: unknown };

/** A JSON HTTP server on a free loopback port for fakes of outside APIs; records every request. */
export async function startFakeJsonServer(
  handle: FakeHandler,
): Promise<{ port: number; requests: FakeRequest[]; close(): Promise<void> }> {
  const requests: FakeRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization,
        body,
      };
      requests.push(request);
      const out = handle(request);
      if (out.body === undefined) {
        res.writeHead(out.status).end();
      } else {
        res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export const bearer = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];

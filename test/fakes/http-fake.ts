import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeHttpServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export type FakeHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>;

/** The whole body of a request (or of a response read as a client), as bytes. */
export async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString('utf8');
}

/**
 * A plain HTTP server on a free loopback port for a fake of an outside service. `close()` also cuts requests
 * the fake left hanging on purpose, so a test that simulates a stalled provider still ends cleanly.
 */
export async function startFakeHttpServer(handler: FakeHandler): Promise<FakeHttpServer> {
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((body) => handler(req, body, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake failed: ${String(error)}`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request to a JSON fake, as parsed by `startFakeJsonServer` (and recorded for assertions). */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body: any;
}

export type FakeJsonHandler = (req: FakeRequest) => { status: number; body?: unknown };

/** `startFakeHttpServer` for JSON APIs: parses each request, records it, and writes the answer as JSON. */
export async function startFakeJsonServer(
  handle: FakeJsonHandler,
): Promise<FakeHttpServer & { requests: FakeRequest[] }> {
  const requests: FakeRequest[] = [];
  const server = await startFakeHttpServer((req, text, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
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
    if (out.body === undefined) res.writeHead(out.status).end();
    else res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
  });
  return { ...server, requests };
}

/** The token of an `Authorization: Bearer <token>` header. */
export const bearer = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];

/** What a fake should do instead of answering normally, for the next matching request(s). */
export type InjectedFailure =
  { kind: 'status'; status: number; body?: string } | { kind: 'hang' } | { kind: 'garbage' } | { kind: 'reset' };

/** A queue of failures per key (a command, a path): `take(key)` hands out the next one, if any. */
export class FailureQueue<F> {
  private readonly queued = new Map<string, F[]>();

  push(key: string, failure: F, times = 1): void {
    const list = this.queued.get(key) ?? [];
    for (let i = 0; i < times; i++) list.push(failure);
    this.queued.set(key, list);
  }

  take(key: string): F | undefined {
    const list = this.queued.get(key);
    const next = list?.shift();
    if (list && list.length === 0) this.queued.delete(key);
    return next;
  }

  clear(): void {
    this.queued.clear();
  }
}

/** Applies a transport-level failure; answers false when the failure is not one of those. */
export function applyTransportFailure(failure: InjectedFailure, res: ServerResponse): boolean {
  switch (failure.kind) {
    case 'hang':
      return true; // never answered; close() cuts it
    case 'reset':
      res.socket?.destroy();
      return true;
    case 'garbage':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway</body></html>');
      return true;
    case 'status':
      res.writeHead(failure.status, { 'content-type': 'text/plain' });
      res.end(failure.body ?? `HTTP ${failure.status}`);
      return true;
  }
}

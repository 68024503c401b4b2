import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as a receiver must verify them. */
  raw: Buffer;
  body: any;
  /** Date.now() when the whole request had arrived. */
  at: number;
}

/** What the receiver answers; `delayMs` holds the response back (a slow endpoint). */
export interface ReceiverAnswer {
  status: number;
  delayMs?: number;
  body?: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT`; endpoints append a path of their own. */
  url: string;
  port: number;
  requests: ReceivedWebhook[];
  /** Decides each answer (default 200 at once). */
  answer: (request: ReceivedWebhook) => ReceiverAnswer;
  received(path?: string): ReceivedWebhook[];
  /** Resolves once `predicate` holds over what has arrived. */
  waitFor(predicate: (requests: ReceivedWebhook[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 and a free port that records every webhook it gets. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const delayed = new Set<NodeJS.Timeout>();
  const receiver = {} as WebhookReceiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const received: ReceivedWebhook = { path: req.url ?? '/', headers: req.headers, raw, body, at: Date.now() };
      requests.push(received);
      waiters.forEach((check) => check());
      const answer = receiver.answer(received);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain' });
        res.end(answer.body ?? '');
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        delayed.delete(timer);
        send();
      }, answer.delayMs);
      delayed.add(timer);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    answer: () => ({ status: 200 }),
    received: (path?: string) => (path === undefined ? [...requests] : requests.filter((r) => r.path === path)),
    waitFor: (predicate: (r: ReceivedWebhook[]) => boolean, timeoutMs = 15_000, what = 'webhooks') =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(requests)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Timed out waiting for ${what}; received ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        delayed.forEach(clearTimeout);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return receiver;
}

/**
 * The receiver's side, written from the README's description alone (not with the service's code):
 * HMAC-SHA256 of the raw body, `t=` within 5 minutes and equal to the body's timestamp.
 */
export function independentlyVerify(raw: Buffer, header: string, secret: string): boolean {
  const match = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  if (!timingSafeEqual(Buffer.from(match[2], 'hex'), expected)) return false;
  const t = Number(match[1]);
  return JSON.parse(raw.toString('utf8')).timestamp === t && Math.abs(Date.now() / 1000 - t) <= 300;
}

import { readFileSync } from 'node:fs';
import { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent, createServer, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { requireSource } from '../lib/source';

/**
 * An HTTPS pass-through in front of Pebble that lets one POST in at a time (GET and HEAD pass at once).
 *
 * Pebble 2.4.0 (and its main branch as of 2.9.0) takes its locks in two orders: the authorization
 * handler (POST-as-GET of /authZ/) holds the authorization's lock and then read-locks the MemoryStore
 * (the account lookup), while a new order's FindValidAuthorization read-locks the MemoryStore and
 * then each authorization. With a writer waiting for the MemoryStore (AddOrder), Go's RWMutex lets no
 * new reader in, and the three wait on each other forever: under load on 2 cores the benchmarks' CA
 * stopped answering every signed request after a few thousand certificates. One POST at a time
 * leaves no second handler to wait on; the order and validation rates the gate allows are what the
 * baselines measure through the same gate.
 *
 * Env: UPSTREAM (`https://127.0.0.1:PORT`), UPSTREAM_CA (PEM file), CERT_DIR (where its own loopback
 * certificate is written). Prints `gate ready on PORT`. `GET /__gate/stats` answers its counts.
 */
type PebbleModule = typeof import('../../test/support/pebble');
type HttpFakeModule = typeof import('../../test/fakes/http-fake');

const NOT_COPIED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length']);

async function main(): Promise<void> {
  const upstream = new URL(process.env.UPSTREAM ?? '');
  const agent = new Agent({ ca: readFileSync(process.env.UPSTREAM_CA ?? ''), keepAlive: true });
  const { loopbackCertificate } = requireSource<PebbleModule>('test/support/pebble');
  const { readBytes } = requireSource<HttpFakeModule>('test/fakes/http-fake');
  const { certFile, keyFile } = loopbackCertificate(process.env.CERT_DIR ?? '.', 'serial-gate');
  const stats = { posts: 0, others: 0, waitedMs: 0, maxWaitMs: 0, upstreamMs: 0, maxQueue: 0, queued: 0 };
  let tail: Promise<unknown> = Promise.resolve();

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: OutgoingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers))
        if (!NOT_COPIED.has(name) && value !== undefined) headers[name] = value;
      if (body.length) headers['content-length'] = body.length;
      const out = request(
        {
          agent,
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
          timeout: 60_000,
        },
        (res) => {
          void readBytes(res).then((answer) => {
            const copied: OutgoingHttpHeaders = {};
            for (const [name, value] of Object.entries(res.headers))
              if (!NOT_COPIED.has(name) && value !== undefined) copied[name] = value;
            resolve({ status: res.statusCode ?? 502, headers: copied, body: answer });
          }, reject);
        },
      );
      out.once('timeout', () => out.destroy(new Error('Pebble did not answer within 60 s')));
      out.once('error', reject);
      out.end(body);
    });

  const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    if (req.url === '/__gate/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    void (async () => {
      const body = await readBytes(req);
      let answer;
      if (req.method === 'POST') {
        stats.posts++;
        stats.queued++;
        stats.maxQueue = Math.max(stats.maxQueue, stats.queued);
        const arrived = performance.now();
        const turn = tail.then(async () => {
          const started = performance.now();
          stats.queued--;
          stats.waitedMs += started - arrived;
          stats.maxWaitMs = Math.max(stats.maxWaitMs, started - arrived);
          try {
            return await forward(req, body);
          } finally {
            stats.upstreamMs += performance.now() - started;
          }
        });
        tail = turn.catch(() => undefined);
        answer = await turn;
      } else {
        stats.others++;
        answer = await forward(req, body);
      }
      if (req.method !== 'HEAD') answer.headers['content-length'] = answer.body.length;
      res.writeHead(answer.status, answer.headers);
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    })().catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`serial gate: ${String(error)}`);
    });
  });
  // Like Pebble (Go's server has no idle timeout), idle keep-alive sockets stay open: Node's default of
  // 5 s closes them under the ACME proxy's agent just as it reuses one ("socket hang up").
  server.keepAliveTimeout = 0;
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`gate ready on ${(server.address() as { port: number }).port}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.once('end', () => process.exit(0)).resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`serial gate failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

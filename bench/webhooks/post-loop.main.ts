import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * The throughput baseline, in a process of its own like the node it is compared with: plain
 * keep-alive HTTP POSTs of a body of the same size to the same receivers, the same number in
 * flight, no signing and no database. Env: POST_URLS (comma-separated), IN_FLIGHT, BODY_BYTES,
 * DURATION_MS. Prints `posted <n> in <ms> ms`.
 */
async function main(): Promise<void> {
  const urls = (process.env.POST_URLS ?? '').split(',').map((u) => new URL(u));
  const inFlight = Number(process.env.IN_FLIGHT ?? 512);
  const size = Number(process.env.BODY_BYTES ?? 1_000);
  const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, size - 10)) }));
  const duration = Number(process.env.DURATION_MS ?? 10_000);
  const agent = new http.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 64 });
  const post = (url: URL) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          method: 'POST',
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': String(body.length),
          },
        },
        (res) => {
          res.resume();
          res.once('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  let posted = 0;
  const started = performance.now();
  const end = started + duration;
  await Promise.all(
    Array.from({ length: inFlight }, async (_, worker) => {
      for (let i = worker; performance.now() < end; i += inFlight) {
        await post(urls[i % urls.length]);
        posted++;
      }
    }),
  );
  process.stdout.write(`posted ${posted} in ${Math.round(performance.now() - started)} ms\n`);
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`post loop failed: ${String(error)}\n`);
  process.exit(1);
});

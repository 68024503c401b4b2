import { pool } from '../lib/cluster';
import { forEachConcurrently } from '../lib/load';
import { stopAll } from '../lib/processes';
import { formatNumber, percentile, round, sleep } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { EDGE_AREA } from './area';
import { cpuSeconds, residentBytes, seedDomains, startEdge, startOrigin } from './edge-fixtures';
import { handshake } from './tls-load';
import { performance } from 'node:perf_hooks';

const CERTIFICATES = Number(process.env.BENCH_EDGE_CERTIFICATES ?? 100_000);
/** The edge's default bound on opened TLS contexts (edge.options.ts). */
const CONTEXT_BOUND = 10_000;
const BURST = 200;
const BURSTS = 10;
const SETTLE_MS = 3_000;

/** 200 handshakes started at once, each on a new connection; their latencies. */
async function burst(port: number, names: string[]): Promise<number[]> {
  return Promise.all(
    names.map(async (name) => {
      const t0 = performance.now();
      await handshake(port, name);
      return performance.now() - t0;
    }),
  );
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  try {
    const originPort = await startOrigin();
    const origin = `http://127.0.0.1:${originPort}`;
    // The baseline: an edge whose replica is empty (its own namespace), same process, same settings.
    const empty = await startEdge({ ...env, prefix: `empty_${env.prefix}` }, { LOG_LEVEL: 'info' });
    await sleep(SETTLE_MS);
    const rssEmpty = await residentBytes(empty.metricsUrl);
    empty.proc.child.kill('SIGTERM');

    const seeding = performance.now();
    const sample = new Set<number>([CERTIFICATES - 1, ...Array.from({ length: 100 }, (_, i) => i * 997)]);
    const certs = await seedDomains(pg, env, CERTIFICATES, origin, (i) => sample.has(i % CERTIFICATES));
    const seedSeconds = (performance.now() - seeding) / 1000;

    // Start: process spawned until the last hostname's certificate is presented.
    const last = `h${CERTIFICATES - 1}.bench-edge.com`;
    const edge = await startEdge(env, { LOG_LEVEL: 'info' });
    let presented: string | undefined;
    while (!presented) presented = await handshake(edge.https, last, true).catch(() => undefined);
    const startSeconds = (performance.now() - edge.spawnedAt) / 1000;
    if (presented !== certs.get(last)!.fingerprint256) throw new Error('Wrong certificate after start');
    const readLine = /Edge replica read: (\d+) hostnames in (\d+) ms/.exec(edge.proc.output());
    await sleep(SETTLE_MS);
    const rssLoaded = await residentBytes(edge.metricsUrl);

    // Handshakes for names whose certificate is not opened yet, 200 at once; then the same names warm.
    const names = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `h${(from + i) % CERTIFICATES}.bench-edge.com`);
    const cold: number[] = [];
    const warm: number[] = [];
    const cpu = { cold: 0, warm: 0 };
    for (let b = 0; b < BURSTS; b++) {
      const batch = names(1 + b * BURST, BURST);
      const c0 = cpuSeconds(edge.proc.child.pid);
      cold.push(...(await burst(edge.https, batch)));
      const c1 = cpuSeconds(edge.proc.child.pid);
      warm.push(...(await burst(edge.https, batch)));
      cpu.cold += c1 - c0;
      cpu.warm += cpuSeconds(edge.proc.child.pid) - c1;
    }
    for (const i of sample) {
      const name = `h${i}.bench-edge.com`;
      if ((await handshake(edge.https, name, true)) !== certs.get(name)!.fingerprint256) {
        throw new Error(`Wrong certificate for ${name}`);
      }
    }

    // Past the bound: more names than contexts kept, so the cache is full and evicting.
    await forEachConcurrently(names(1 + BURSTS * BURST, CONTEXT_BOUND + 2_000), 16, (name) =>
      handshake(edge.https, name),
    );
    await sleep(SETTLE_MS);
    const rssContexts = await residentBytes(edge.metricsUrl);

    const perCertificate = (rssLoaded - rssEmpty) / CERTIFICATES;
    const withContexts = (rssContexts - rssEmpty) / CERTIFICATES;
    const perContext = (rssContexts - rssLoaded) / CONTEXT_BOUND;
    console.log(
      `  start ${startSeconds.toFixed(1)} s; ${formatNumber(perCertificate / 1024)} KiB per certificate held, ` +
        `${formatNumber(withContexts / 1024)} KiB with ${formatNumber(CONTEXT_BOUND)} contexts; cold p99 ` +
        `${percentile(cold, 99).toFixed(1)} ms vs warm ${percentile(warm, 99).toFixed(1)} ms`,
    );
    return {
      method:
        `${formatNumber(CERTIFICATES)} domains, each with its own ECDSA P-256 certificate (chain of leaf and test CA, ` +
        `key sealed with ENCRYPTION_KEY), written to PostgreSQL and to the edge replica (the JetStream KV bucket a ` +
        `node's replica writer fills; the benchmark fills it the same way, without a node). Start: from spawning the ` +
        `edge process (dist/apps/edge) until the last-written hostname's certificate is presented over TLS. Memory: ` +
        `process RSS ${SETTLE_MS / 1000} s after start, minus the RSS of the same edge on an empty replica, divided ` +
        `by the certificates held (keys sealed); then again after handshakes for ${formatNumber(CONTEXT_BOUND + 2_000)} ` +
        `more names, which fills the bounded cache of opened TLS contexts (${formatNumber(CONTEXT_BOUND)}). ` +
        `Handshakes: ${BURSTS} bursts of ${BURST} new TLS connections started at once, each to a name whose key ` +
        `was never opened (cold), each burst followed by the same ${BURST} names again (warm, the baseline); the ` +
        `client runs on the same two cores. The presented certificate was checked on ${sample.size} hostnames.`,
      figures: [
        figure({
          label: `Edge start to serving TLS with ${formatNumber(CERTIFICATES)} certificates`,
          value: round(startSeconds, 1),
          unit: 's',
          goal: { of: 'value', atMost: 30 },
        }),
        figure({
          label: 'Resident memory per certificate held (key sealed)',
          value: round(perCertificate),
          unit: 'B',
          goal: { of: 'value', atMost: 10 * 1024 },
        }),
        figure({
          label: `Resident memory per certificate, with ${formatNumber(CONTEXT_BOUND)} opened contexts cached`,
          value: round(withContexts),
          unit: 'B',
          goal: { of: 'value', atMost: 10 * 1024 },
        }),
        figure({
          label: `Handshake p99, certificate not opened yet, ${BURST} at once`,
          value: round(percentile(cold, 99), 2),
          unit: 'ms',
          baseline: { label: 'the same names, opened (warm) p99', value: round(percentile(warm, 99), 2) },
          goal: { of: 'value', atMost: 20 },
        }),
      ],
      details: {
        'Replica read at start (hostnames, ms)': readLine ? `${readLine[1]} in ${readLine[2]}` : 'not logged',
        'Edge RSS, empty replica (MiB)': round(rssEmpty / 2 ** 20),
        'Edge RSS, every certificate held (MiB)': round(rssLoaded / 2 ** 20),
        'Edge RSS, contexts cache full (MiB)': round(rssContexts / 2 ** 20),
        'Memory per opened TLS context (B)': round(perContext),
        'Cold handshake p50 (ms)': round(percentile(cold, 50), 2),
        'Warm handshake p50 (ms)': round(percentile(warm, 50), 2),
        'Edge CPU per handshake, cold vs warm (µs)': `${round((cpu.cold / cold.length) * 1e6)} vs ${round((cpu.warm / warm.length) * 1e6)}`,
        'Seeding PostgreSQL and the replica (s)': round(seedSeconds, 1),
      },
    };
  } finally {
    await stopAll();
    await pg.end();
  }
}

export const edgeCertificatesBench: Benchmark = {
  name: 'edge.certificates',
  area: EDGE_AREA,
  order: 3,
  title: '100,000 certificates: memory, start-up, handshakes of names not in memory',
  timeoutMs: 900_000,
  run,
};

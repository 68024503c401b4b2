import { pool } from '../lib/cluster';
import { LoadRun, closedLoop, forEachConcurrently, summarize } from '../lib/load';
import { built } from '../lib/paths';
import { startScript, stopAll } from '../lib/processes';
import { formatNumber, round } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { EDGE_AREA } from './area';
import { cpuSeconds, residentBytes, seedDomains, startEdge, startOrigin, writeCertificateFiles } from './edge-fixtures';
import { handshake } from './tls-load';
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const HOSTNAMES = Number(process.env.BENCH_EDGE_HOSTNAMES ?? 10_000);
const CONCURRENCY = 16;
const ROUND_MS = 5_000;
const ROUNDS = 3;
const SAMPLE = 200;

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  let certDir: string | undefined;
  try {
    const originPort = await startOrigin();
    const edge = await startEdge(env);
    const seeding = performance.now();
    const certs = await seedDomains(pg, env, HOSTNAMES, `http://127.0.0.1:${originPort}`);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const names = [...certs.keys()];
    const files = writeCertificateFiles(certs.get(names[0])!);
    certDir = files.dir;
    const staticTls = startScript('static-tls', built('bench/edge/static-tls.main'), {
      CERT_FILE: files.certFile,
      KEY_FILE: files.keyFile,
    });
    const staticPort = Number(await staticTls.waitFor(/static tls ready on (\d+)/, 15_000));
    const rssBefore = await residentBytes(edge.metricsUrl);

    // Cold: every hostname once, in random order: route and certificate read, key opened, context built.
    const shuffled = [...names].sort(() => Math.random() - 0.5);
    const coldStarted = performance.now();
    await forEachConcurrently(shuffled, CONCURRENCY, (name) => handshake(edge.https, name));
    const coldPerSecond = names.length / ((performance.now() - coldStarted) / 1000);

    // The right certificate for the name, on a sample.
    for (const name of shuffled.slice(0, SAMPLE)) {
      const presented = await handshake(edge.https, name, true);
      if (presented !== certs.get(name)!.fingerprint256) throw new Error(`Wrong certificate for ${name}`);
    }

    const pick = () => names[Math.floor(Math.random() * names.length)];
    const edgeRuns: LoadRun[] = [];
    const staticRuns: LoadRun[] = [];
    const cpu = { edge: 0, static: 0 };
    const measure = async (side: 'edge' | 'static', port: number, pid: number | undefined, into: LoadRun[]) => {
      const before = cpuSeconds(pid);
      into.push(await closedLoop(CONCURRENCY, ROUND_MS, () => handshake(port, pick())));
      cpu[side] += cpuSeconds(pid) - before;
    };
    await closedLoop(CONCURRENCY, 1_000, () => handshake(staticPort, pick()));
    for (let i = 0; i < ROUNDS; i++) {
      await measure('edge', edge.https, edge.proc.child.pid, edgeRuns);
      await measure('static', staticPort, staticTls.child.pid, staticRuns);
    }
    const e = summarize(edgeRuns);
    const s = summarize(staticRuns);
    if (e.errors || s.errors) throw new Error(`Handshakes failed: ${e.firstError ?? s.firstError}`);
    const rssAfter = await residentBytes(edge.metricsUrl);
    console.log(
      `  edge: ${formatNumber(e.perSecond)}/s (cold ${formatNumber(coldPerSecond)}/s), p99 ${e.p99.toFixed(2)} ms; ` +
        `static: ${formatNumber(s.perSecond)}/s p99 ${s.p99.toFixed(2)} ms; RSS +${formatNumber((rssAfter - rssBefore) / 2 ** 20)} MiB`,
    );
    return {
      method:
        `${formatNumber(HOSTNAMES)} verified domains, each with its own ECDSA P-256 certificate (key sealed) in the ` +
        `certificates table, served by the edge process (dist/apps/edge). The benchmark process opens new TLS ` +
        `connections (no session resumption, certificate verification off on the client) with a random SNI among ` +
        `them, ${CONCURRENCY} handshakes in flight, and closes each once secure. Cold: every hostname once in random ` +
        `order right after start (route and certificate read from PostgreSQL, key opened, TLS context built). ` +
        `Baseline: a plain Node TLS server process with one static certificate of the same kind, same client, same ` +
        `run; ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s. The presented certificate was checked against ` +
        `the hostname on ${SAMPLE} hostnames.`,
      figures: [
        figure({
          label: `New TLS handshakes per second, ${formatNumber(HOSTNAMES)} hostnames (warm)`,
          value: round(e.perSecond),
          unit: '/s',
          baseline: { label: 'Node TLS server, one static certificate', value: round(s.perSecond) },
          goal: { of: 'ratio', atLeast: 0.8 },
        }),
        figure({
          label: 'Handshake p99 (warm)',
          value: round(e.p99, 3),
          unit: 'ms',
          baseline: { label: 'static certificate p99', value: round(s.p99, 3) },
        }),
        figure({
          label: 'Server CPU per handshake (user + system)',
          value: round((cpu.edge / e.ok) * 1e6),
          unit: 'µs',
          baseline: { label: 'static certificate server', value: round((cpu.static / s.ok) * 1e6) },
        }),
        figure({
          label: `First handshake of each of ${formatNumber(HOSTNAMES)} hostnames (cold), per second`,
          value: round(coldPerSecond),
          unit: '/s',
          baseline: { label: 'static certificate', value: round(s.perSecond) },
        }),
      ],
      details: {
        'Edge resident memory after start (MiB)': round(rssBefore / 2 ** 20),
        'Edge resident memory with every certificate cached (MiB)': round(rssAfter / 2 ** 20),
        'Seeding domains and certificates (s)': round(seedSeconds, 1),
        'Handshakes measured (edge, warm)': e.ok,
        'Edge p50 (ms)': round(e.p50, 3),
      },
    };
  } finally {
    await stopAll();
    await pg.end();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  }
}

export const edgeHandshakesBench: Benchmark = {
  name: 'edge.handshakes',
  area: EDGE_AREA,
  order: 2,
  title: 'New TLS handshakes per second with 10,000 hostnames',
  timeoutMs: 240_000,
  run,
};

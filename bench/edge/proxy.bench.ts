import { pool } from '../lib/cluster';
import { LoadRun, closedLoop, summarize } from '../lib/load';
import { stopAll } from '../lib/processes';
import { formatNumber, percentile, round } from '../lib/stats';
import { BenchEnv, Benchmark, Figure, Measured, figure } from '../lib/types';
import { EDGE_AREA } from './area';
import { RunningCaddy, cpuSeconds, seedDomains, startCaddy, startEdge, startOrigin } from './edge-fixtures';
import { KeepAliveConnection, pacedLoop } from './tls-load';

const CONNECTIONS = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PACED_RATE = 1_000;
const PACED_CONNECTIONS = 16;
const ROUND_MS = 5_000;
const ROUNDS = 3;
const WARMUP_MS = 2_000;
const HOSTNAME = 'h0.bench-edge.com';

type Side = 'edge' | 'caddy' | 'origin';
type Target = { port: number; tls: boolean; pid?: number };

const open = (target: Target, n: number) =>
  Promise.all(
    Array.from({ length: n }, () => KeepAliveConnection.open({ ...target, hostname: HOSTNAME, path: '/bench' })),
  );

async function saturated(target: Target, ms: number): Promise<LoadRun> {
  const connections = await open(target, CONNECTIONS);
  try {
    return await closedLoop(CONNECTIONS, ms, async (n) => {
      const status = await connections[n].get();
      if (status !== 200) throw new Error(`status ${status}`);
    });
  } finally {
    connections.forEach((c) => c.close());
  }
}

async function paced(target: Target, ms: number): Promise<{ latencies: number[]; errors: number }> {
  const connections = await open(target, PACED_CONNECTIONS);
  try {
    return await pacedLoop(connections, PACED_RATE, ms);
  } finally {
    connections.forEach((c) => c.close());
  }
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  let caddy: RunningCaddy | undefined;
  try {
    const originPort = await startOrigin();
    const edge = await startEdge(env);
    const certs = await seedDomains(pg, env, 1, `http://127.0.0.1:${originPort}`);
    caddy = await startCaddy(HOSTNAME, certs.get(HOSTNAME)!, originPort);
    const targets = new Map<Side, Target>([
      ['edge', { port: edge.https, tls: true, pid: edge.proc.child.pid }],
      ['origin', { port: originPort, tls: false }],
    ]);
    if (caddy) targets.set('caddy', { port: caddy.port, tls: true, pid: caddy.pid });
    const runs = { edge: [] as LoadRun[], caddy: [] as LoadRun[], origin: [] as LoadRun[] };
    const cpu = { edge: 0, caddy: 0, origin: 0 };
    const slow = { edge: [] as number[], caddy: [] as number[], origin: [] as number[] };
    let pacedErrors = 0;
    for (const target of targets.values()) await saturated(target, WARMUP_MS);
    // Alternate rounds, so drift on a shared machine hits every side alike.
    for (let i = 0; i < ROUNDS; i++) {
      for (const [side, target] of targets) {
        const before = cpuSeconds(target.pid);
        runs[side].push(await saturated(target, ROUND_MS));
        cpu[side] += cpuSeconds(target.pid) - before;
        const p = await paced(target, ROUND_MS);
        slow[side].push(...p.latencies);
        pacedErrors += p.errors;
      }
    }
    const e = summarize(runs.edge);
    const o = summarize(runs.origin);
    const c = caddy ? summarize(runs.caddy) : undefined;
    const failed = [e, o, c].find((s) => s?.errors);
    if (failed || pacedErrors) throw new Error(`Requests failed: ${failed?.firstError ?? `${pacedErrors} paced`}`);
    const p99 = (side: Side) => percentile(slow[side], 99);
    const p50 = (side: Side) => percentile(slow[side], 50);
    const perRequest = (side: Side, ok: number) => round((cpu[side] / ok) * 1e6, 1);
    const line = (n: string, s: typeof e, side: Side) =>
      `${n}: ${formatNumber(s.perSecond)}/s, at ${PACED_RATE}/s p50 ${p50(side).toFixed(2)} p99 ${p99(side).toFixed(2)} ms`;
    console.log(
      `  ${[line('edge', e, 'edge'), c ? line('caddy', c, 'caddy') : 'caddy: not installed', line('origin', o, 'origin')].join('; ')}`,
    );

    const versus = (label: string, value: number) => (c ? { baseline: { label, value } } : {});
    const figures: Figure[] = [
      figure({
        label: `Proxied requests per second over TLS keep-alive (${CONNECTIONS} connections, saturated)`,
        value: round(e.perSecond),
        unit: '/s',
        ...versus(`Caddy ${caddy?.version} reverse_proxy`, round(c?.perSecond ?? 0)),
        ...(c ? { goal: { of: 'ratio' as const, atLeast: 0.5 } } : {}),
      }),
      figure({
        label: `p99 latency at ${formatNumber(PACED_RATE)} requests/s (not saturated)`,
        value: round(p99('edge'), 3),
        unit: 'ms',
        ...versus('Caddy p99 at the same rate', round(p99('caddy'), 3)),
      }),
    ];
    if (c) {
      figures.push(
        figure({
          label: `p99 overhead over Caddy at ${formatNumber(PACED_RATE)} requests/s`,
          value: round(p99('edge') - p99('caddy'), 3),
          unit: 'ms',
          goal: { of: 'value', atMost: 2 },
        }),
      );
    }
    figures.push(
      figure({
        label: 'Proxy CPU per request, saturated (user + system)',
        value: perRequest('edge', e.ok),
        unit: 'µs',
        ...versus('Caddy CPU per request', perRequest('caddy', c?.ok ?? 1)),
      }),
    );
    return {
      method:
        `The edge process (dist/apps/edge) terminates TLS for ${HOSTNAME} (certificate from the certificates table, ` +
        `ECDSA P-256) and proxies to a loopback Node origin process answering 256 bytes. Saturated: ${CONNECTIONS} ` +
        `keep-alive TLS connections from the benchmark process, one request in flight each (a lean HTTP/1.1 client). ` +
        `Latency: ${formatNumber(PACED_RATE)} requests/s paced over ${PACED_CONNECTIONS} keep-alive connections, well ` +
        `below saturation, so the p99 shows what the proxy adds rather than queueing. Baseline: Caddy's ` +
        `reverse_proxy with the same certificate to the same origin in the same run` +
        `${caddy ? '' : ' (Caddy is not installed here: baseline unavailable)'}; the origin without any proxy (plain ` +
        `HTTP) for reference. ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s of each kind after ` +
        `${WARMUP_MS / 1000} s of warm-up. The load generator, the origin and the proxy share the machine's cores ` +
        `(Caddy may use all of them, the edge one); CPU per request is read from /proc.`,
      figures,
      details: {
        Caddy: caddy
          ? `${caddy.version}, ${formatNumber(c!.perSecond)}/s saturated`
          : 'not installed (baseline unavailable)',
        'Edge p50 / p99 saturated (ms)': `${e.p50.toFixed(2)} / ${e.p99.toFixed(2)}`,
        ...(c ? { 'Caddy p50 / p99 saturated (ms)': `${c.p50.toFixed(2)} / ${c.p99.toFixed(2)}` } : {}),
        [`Edge p50 at ${PACED_RATE}/s (ms)`]: round(p50('edge'), 3),
        ...(c ? { [`Caddy p50 at ${PACED_RATE}/s (ms)`]: round(p50('caddy'), 3) } : {}),
        'Origin direct (plain HTTP)': `${formatNumber(o.perSecond)}/s saturated, p99 ${p99('origin').toFixed(2)} ms at ${PACED_RATE}/s`,
        'Requests measured (edge, saturated)': e.ok,
      },
    };
  } finally {
    await caddy?.stop();
    await stopAll();
    await pg.end();
  }
}

export const edgeProxyBench: Benchmark = {
  name: 'edge.proxy',
  area: EDGE_AREA,
  order: 1,
  title: 'Proxy throughput and latency over TLS keep-alive, against Caddy',
  timeoutMs: 180_000,
  run,
};

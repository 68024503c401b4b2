import { pool } from '../lib/cluster';
import { formatStages, profileDir, profileStages } from '../lib/cpu-profile-stages';
import { startScript, stopAll } from '../lib/processes';
import { round, sleep } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import {
  cpuSeconds,
  createDomain,
  createWorkspace,
  databaseCpu,
  databaseCpuDelta,
  fixtures,
  json,
  startDns,
  startService,
} from '../domains/service';
import { OPERATIONS_AREA } from './scale.bench';

const DOMAINS = 20;
const SETTLE_MS = 15_000;
const WINDOW_MS = Number(process.env.BENCH_IDLE_WINDOW_MS ?? 60_000);
/** Two windows, the node and the bare process side by side in each: the machine is shared and noisy. */
const ROUNDS = 2;

/**
 * One node with nothing to do: its background (lease renewal, membership, monitor ticks, outbox
 * relay, webhook delivery polling) as a share of one core, beside a bare Node process idling in the
 * same windows.
 */
async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  try {
    const { domainZones } = fixtures();
    const dns = await startDns(domainZones());
    const { api, node } = await startService(env, pg, dns.address, { MONITOR_INTERVAL_SECONDS: '300' });
    const { apiKey } = await createWorkspace(api.url);
    for (let i = 0; i < DOMAINS; i++) await createDomain(api.url, apiKey, `idle${i}.bench-idle.com`);
    const hook = await json(`${api.url}/v1/webhook-endpoints`, 'POST', apiKey, {
      url: 'https://hooks.bench-idle.com/in',
      events: ['domain.verified'],
    });
    if (hook.status !== 201) throw new Error(`POST /v1/webhook-endpoints: ${hook.status} ${JSON.stringify(hook.body)}`);
    await api.proc.stop();
    // The bare process: Node's event loop with one timer, nothing else.
    const bare = startScript('bare', "setInterval(() => {}, 1000); console.log('bare up')", {}, ['-e']);
    await bare.waitFor(/bare up/, 10_000);
    // The creations' first probes (10 s after creation) and their events are done before measuring.
    await sleep(SETTLE_MS);
    const rounds: { node: number; bare: number; db: number; ms: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const at = Date.now();
      const n0 = cpuSeconds(node.proc);
      const b0 = cpuSeconds(bare);
      const d0 = await databaseCpu(pg);
      await sleep(WINDOW_MS);
      const ms = Date.now() - at;
      rounds.push({
        node: cpuSeconds(node.proc) - n0,
        bare: cpuSeconds(bare) - b0,
        db: databaseCpuDelta(d0, await databaseCpu(pg)),
        ms,
      });
    }
    const share = (cpu: number, ms: number) => (cpu / (ms / 1000)) * 100;
    const total = rounds.reduce(
      (a, r) => ({ node: a.node + r.node, bare: a.bare + r.bare, db: a.db + r.db, ms: a.ms + r.ms }),
      { node: 0, bare: 0, db: 0, ms: 0 },
    );
    const nodePct = share(total.node, total.ms);
    const barePct = share(total.bare, total.ms);
    // The monitor's lag as monitor_lag_seconds reads it: how far the earliest shard watermark
    // (shard_leases.monitored_until, written every 5 s) is behind now; 0 when nothing is overdue.
    const [{ lag }] = (
      await pg.query<{ lag: number | null }>(
        'select greatest(0, extract(epoch from now() - min(monitored_until)))::float8 as lag from shard_leases',
      )
    ).rows;
    // With BENCH_NODE_ARGS=--cpu-prof: where the idle node's CPU goes, per second of the windows.
    const windowsEndedAt = Date.now();
    await node.proc.stop(30_000);
    const exitedAt = Date.now();
    const dir = profileDir();
    const profile = dir
      ? profileStages(dir, exitedAt - windowsEndedAt + total.ms, exitedAt - windowsEndedAt)
      : undefined;
    console.log(`  idle node ${nodePct.toFixed(2)}% of a core, bare process ${barePct.toFixed(2)}%`);
    return {
      method:
        `One dist/apps/node process owning all 4096 shards (MONITOR_INTERVAL_SECONDS=300), ${DOMAINS} domains ` +
        `created through the api (stopped afterwards) and one webhook endpoint, so the monitor, the outbox relay ` +
        `and the delivery worker have their usual state but nothing is due. After ${SETTLE_MS / 1000} s (the first ` +
        `probes and their events done), the node's CPU (utime + stime from /proc) over ${ROUNDS} windows of ` +
        `${WINDOW_MS / 1000} s, as a share of one core. Baseline in the same windows: a bare Node process with ` +
        `one 1 s timer. The PostgreSQL backends of the node's database are measured over the same windows ` +
        `(the statements the node's background sends). The machine is shared: see the load before the run.`,
      figures: [
        figure({
          label: 'Idle node CPU, nothing due (share of one core)',
          value: round(nodePct, 2),
          unit: '%',
          baseline: { label: 'bare Node process, same windows', value: round(barePct, 2) },
          goal: { of: 'value', atMost: 1 },
        }),
      ],
      details: {
        'Per window: node / bare / PostgreSQL (this database) CPU': rounds
          .map(
            (r) =>
              `${share(r.node, r.ms).toFixed(2)}% / ${share(r.bare, r.ms).toFixed(2)}% / ${share(r.db, r.ms).toFixed(2)}%`,
          )
          .join('; '),
        ...(profile
          ? {
              'Node CPU by stage over the windows (node --cpu-prof, self time; the profiler adds its own cost)': `${(
                profile.busyMs /
                (profile.windowMs / 1000)
              ).toFixed(1)} ms per second: ${formatStages(profile.stages, profile.windowMs / 1000, 'ms/s')}`,
            }
          : {}),
        'PostgreSQL CPU for this database over the windows': `${share(total.db, total.ms).toFixed(2)}%`,
        'Monitor lag at the end (now less the earliest shard watermark; watermarks written every 5 s), s': round(
          Number(lag ?? 0),
          1,
        ),
      },
    };
  } finally {
    await stopAll();
    await pg.end();
  }
}

export const clusterIdleBench: Benchmark = {
  name: 'cluster.idle',
  area: OPERATIONS_AREA,
  order: 2,
  title: 'An idle node: CPU with nothing due',
  timeoutMs: 480_000,
  run,
};

import type { Pool } from 'pg';
import { actorClient, counterIds, pool, startCounterNode, waitForCoverage } from '../lib/cluster';
import { closedLoop, forEachConcurrently, summarize } from '../lib/load';
import { stopAll } from '../lib/processes';
import { formatNumber, round, sleep } from '../lib/stats';
import { latencyFigures } from '../lib/latency-figures';
import { ACTORS_AREA, BenchEnv, Benchmark, Measured, figure } from '../lib/types';

const CONCURRENCY = Number(process.env.BENCH_PERSIST_CONCURRENCY ?? 256);
const ACTORS = 10_000;
const MEASURE_MS = 10_000;
const BASELINE_WARMUP_MS = 2_000;
/** The node's MikroORM pool (libs/persistence/src/orm-options.ts): the baseline gets as many connections. */
const POOL_SIZE = 10;

const UPSERT =
  'insert into bench_counters (id, value) values ($1, 1) on conflict (id) do update set value = bench_counters.value + 1';

/** Committed transactions in this database so far (PostgreSQL's statistics, flushed about every second). */
async function commits(pg: Pool): Promise<number> {
  await sleep(1_100);
  const client = await pg.connect();
  try {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>(
      'select xact_commit as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0].n);
  } finally {
    client.release();
  }
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, POOL_SIZE);
  const { bus, actors } = await actorClient(env);
  try {
    const node = await startCounterNode(env, 'n1');
    await waitForCoverage(pg, ['n1'], 30_000, [node]);
    const ids = counterIds(ACTORS);
    const pick = () => ids[Math.floor(Math.random() * ids.length)];
    const add = () => actors.ask('counter', pick(), { op: 'add', n: 1 });

    // Warm-up: one add per counter activates it and inserts its first snapshot; then only updates.
    const warmStart = Date.now();
    await forEachConcurrently(ids, CONCURRENCY, (id) => actors.ask('counter', id, { op: 'add', n: 1 }));
    const warmSeconds = (Date.now() - warmStart) / 1000;
    const commitsBefore = await commits(pg);
    const a = summarize([await closedLoop(CONCURRENCY, MEASURE_MS, add)]);
    const actorCommits = (await commits(pg)) - commitsBefore;
    if (a.errors) throw new Error(`${a.errors} commands failed: ${a.firstError}`);
    console.log(`  actors: ${formatNumber(a.perSecond)}/s p50 ${a.p50.toFixed(1)} ms p99 ${a.p99.toFixed(1)} ms`);

    await pg.query('create table bench_counters (id text primary key, value bigint not null)');
    const upsert = () => pg.query(UPSERT, [pick()]);
    await closedLoop(CONCURRENCY, BASELINE_WARMUP_MS, upsert);
    const b = summarize([await closedLoop(CONCURRENCY, MEASURE_MS, upsert)]);
    if (b.errors) throw new Error(`${b.errors} upserts failed: ${b.firstError}`);
    console.log(
      `  pg upsert loop: ${formatNumber(b.perSecond)}/s p50 ${b.p50.toFixed(1)} ms p99 ${b.p99.toFixed(1)} ms`,
    );

    return {
      method:
        `One counter node process owning all 4096 shards; ${ACTORS.toLocaleString('en-US')} counters, each ` +
        `activated and given its first snapshot by one add during warm-up. The benchmark process keeps ${CONCURRENCY} ` +
        `\`{op: 'add', n: 1}\` commands in flight to random counters for ${MEASURE_MS / 1000} s through ActorClient ` +
        `over NATS; each is acknowledged only after its snapshot, its outbox event and its command record are ` +
        `committed (write-through, group commit). The node runs the whole node feature set, so its outbox relay ` +
        `also publishes every counter.added event to JetStream meanwhile. Baseline: ${CONCURRENCY} concurrent loops of a plain single-row ` +
        `\`insert ... on conflict do update\` through a pg Pool of ${POOL_SIZE} connections (the node's pool size), ` +
        `autocommit, from the benchmark process, after ${BASELINE_WARMUP_MS / 1000} s of warm-up.`,
      figures: [
        figure({
          label: `Persisted commands per second, one node (add, ${CONCURRENCY} in flight)`,
          value: round(a.perSecond),
          unit: '/s',
          baseline: { label: 'single-row pg upsert loop', value: round(b.perSecond) },
          goal: { of: 'value', atLeast: 3_000 },
        }),
        ...latencyFigures(a, b, '{p} latency', 'upsert {p}', 2),
      ],
      details: {
        'In flight': CONCURRENCY,
        Actors: ACTORS,
        'Commands measured': a.ok,
        'Upserts measured': b.ok,
        'Database transactions during the actor run (all of them: group commits, outbox relay, leases)': actorCommits,
        'Commands per database transaction (a lower bound on the group-commit batch)': actorCommits
          ? round(a.ok / actorCommits, 1)
          : 'n/a',
        'Warm-up (10,000 activations + first snapshots), s': round(warmSeconds, 1),
      },
    };
  } finally {
    await stopAll();
    await bus.close();
    await pg.end();
  }
}

export const persistedBench: Benchmark = {
  name: 'actors.persisted',
  area: ACTORS_AREA,
  order: 2,
  title: 'Persisted commands per second per node (write-through snapshots)',
  timeoutMs: 90_000,
  run,
};

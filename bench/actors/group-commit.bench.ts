import { processCpuSeconds } from '../lib/process-cpu';
import { Client } from 'pg';
import { JsonSnapshotStore, LeaseRepository } from '@app/actors';
import { DedicatedSqlExecutor } from '@app/persistence';
import { PendingWrite, SnapshotWriter } from '../../libs/actors/src/snapshot-writer';
import { migrateDatabase } from '../lib/database';
import { round } from '../lib/stats';
import { ACTORS_AREA, BenchEnv, Benchmark, Measured, figure } from '../lib/types';

const ACTORS = 2_000;
const WRITES = 6_000;
const BATCHES = [1, 16];
const STATE = { value: 0, note: 'x'.repeat(900) }; // about the size of a domain's JSON state
const UPSERT =
  'insert into bench_rows (id, state) values ($1, $2::jsonb) on conflict (id) do update set state = excluded.state';

const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** CPU per write of `work` (ms), in this process and in the PostgreSQL backend serving `db`. */
async function measure(backendPid: number, writes: number, work: () => Promise<void>) {
  const node = ownCpu();
  const pg = processCpuSeconds(backendPid);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  return {
    nodeMs: ((ownCpu() - node) * 1000) / writes,
    pgMs: ((processCpuSeconds(backendPid) - pg) * 1000) / writes,
    perSecond: writes / seconds,
  };
}

async function run(env: BenchEnv): Promise<Measured> {
  await migrateDatabase(env);
  // One connection: the statements of both paths go to one backend, whose CPU is read from /proc.
  const db = DedicatedSqlExecutor.open(env.databaseUrl, 1, 10_000);
  const client = new Client({ connectionString: env.databaseUrl });
  await client.connect();
  try {
    const [{ pid }] = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
    const leases = new LeaseRepository(db, 600_000);
    const held = new Map((await leases.claim('bench-node', [0, 1, 2, 3])).map((l) => [l.shard, l.epoch]));
    const writer = new SnapshotWriter(db, 'bench-node');
    const store = new JsonSnapshotStore<typeof STATE>('bench');
    const versions = new Map<string, number>();
    let commands = 0;
    const write = (i: number): PendingWrite => {
      const id = `bench_${i % ACTORS}`;
      const shard = i % 4;
      return {
        kind: 'bench',
        store,
        id,
        shard,
        epoch: held.get(shard)!,
        state: { ...STATE, value: i },
        expectedVersion: versions.get(id) ?? 0,
        events: [{ type: 'bench.changed', workspaceId: 'ws_bench', data: { id, value: i } }],
        command: { id: `cmd_${++commands}`, reply: { value: i } },
      };
    };
    const submitBatches = async (batch: number, from: number, count: number) => {
      for (let start = from; start < from + count; start += batch) {
        const items = Array.from({ length: batch }, (_, k) => write(start + k));
        await Promise.all(items.map((w) => writer.submit(w)));
        items.forEach((w) => versions.set(w.id, w.expectedVersion + 1));
      }
    };
    await submitBatches(16, 0, ACTORS); // every actor's first snapshot (inserts)
    await submitBatches(1, ACTORS, 500); // warm-up: statements prepared, caches filled

    const results = [];
    let next = ACTORS + 500;
    for (const batch of BATCHES) {
      results.push({ batch, ...(await measure(pid, WRITES, () => submitBatches(batch, next, WRITES))) });
      next += WRITES;
    }

    // Baseline: the same snapshot as one single-row upsert, a named prepared statement, autocommit.
    await client.query('create table bench_rows (id text primary key, state jsonb not null)');
    const [{ pid: clientPid }] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
    const json = JSON.stringify(STATE);
    const upserts = async (count: number) => {
      for (let i = 0; i < count; i++)
        await client.query({ name: 'bench_upsert', text: UPSERT, values: [`bench_${i % ACTORS}`, json] });
    };
    await upserts(500);
    const baseline = await measure(clientPid, WRITES, () => upserts(WRITES));
    const sum = (r: { nodeMs: number; pgMs: number }) => r.nodeMs + r.pgMs;
    for (const r of results)
      console.log(
        `  batch ${r.batch}: ${round(r.perSecond)}/s, CPU per write ${round(r.nodeMs, 3)} ms here + ${round(r.pgMs, 3)} ms PostgreSQL`,
      );
    console.log(
      `  upsert: ${round(baseline.perSecond)}/s, CPU per write ${round(baseline.nodeMs, 3)} ms here + ${round(baseline.pgMs, 3)} ms PostgreSQL`,
    );

    return {
      method:
        `The node's SnapshotWriter in the benchmark process against a fresh migrated database over one connection ` +
        `(DedicatedSqlExecutor), leases of 4 shards held. ${ACTORS.toLocaleString('en-US')} JSON snapshots of about ` +
        `1 KB are inserted, then ${WRITES.toLocaleString('en-US')} updates are submitted in rounds of ` +
        `${BATCHES.join(' and ')} concurrent writes (each round one group commit), each with one outbox event and ` +
        `one command record, as an actor command writes them. CPU is this process's (process.cpuUsage) and the ` +
        `PostgreSQL backend's (/proc/<pid>/stat, 10 ms ticks), per write. Baseline in the same run: the same ` +
        `snapshot as a single-row \`insert ... on conflict do update\`, a named prepared statement, autocommit, ` +
        `one at a time on a connection of its own.`,
      figures: results.flatMap((r) => [
        figure({
          label: `CPU per write, group commits of ${r.batch}, benchmark process + PostgreSQL`,
          value: round(sum(r), 3),
          unit: 'ms',
          baseline: { label: 'single-row prepared upsert', value: round(sum(baseline), 3) },
        }),
        figure({
          label: `Writes per second, group commits of ${r.batch}, one connection`,
          value: round(r.perSecond),
          unit: '/s',
          baseline: { label: 'single-row prepared upsert', value: round(baseline.perSecond) },
        }),
      ]),
      details: Object.fromEntries(
        [...results, { batch: 'upsert', ...baseline }].map((r) => [
          `CPU per write (ms), ${typeof r.batch === 'number' ? `batch ${r.batch}` : 'baseline upsert'}: here / PostgreSQL`,
          `${round(r.nodeMs, 3)} / ${round(r.pgMs, 3)}`,
        ]),
      ),
    };
  } finally {
    await client.end();
    await db.close();
  }
}

export const groupCommitBench: Benchmark = {
  name: 'actors.group-commit',
  area: ACTORS_AREA,
  order: 2.5,
  title: 'CPU per snapshot write of the group commit (the write path of every actor command)',
  timeoutMs: 180_000,
  run,
};

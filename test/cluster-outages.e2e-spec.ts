/**
 * @run-alone: its assertions include times (the failover and outage goals), so it starts after every other file
 * and waits for them to finish (test/support/run-alone.ts); times are judged only when the CPU
 * accounting says the machine was not busy with other work (judgeTimes).
 */
import { ActorClient } from '@app/actors';
import { metricsRegistry } from '@app/metrics';
import {
  CounterCluster,
  LoadResult,
  PrivateNats,
  PrivatePostgres,
  counterCluster,
  eventually,
  runCounterLoad,
  sleep,
  startPrivateNats,
  startPrivatePostgres,
  stopAllProcesses,
  verifyCounters,
  waitForUrl,
  RUN_ALONE_MAX_WAIT_MS,
  judgeTimes,
  runAlone,
  startCpuAccounting,
  CpuShare,
} from '@test/support';
import { watchAckStall } from './support/ack-stall';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';

const COUNTERS = Array.from({ length: 120 }, (_, i) => `outage-${i}`);
const NODES = ['n1', 'n2', 'n3'];
/**
 * The goal: every actor writable within 3 s of the dependency returning (measured from when it is
 * back, so a slow PostgreSQL restart on a loaded machine does not count). Seen: 0.4 s after a crash,
 * 1.0 s after a 5 s NATS outage, 0.4 s after a 3 s lock, 2.0 s after an outage past the lease (the
 * figures are logged and kept in test/artifacts). OUTAGE_RECOVERY_BUDGET_MS overrides it.
 */
const RECOVERY_BUDGET_MS = Number(process.env.OUTAGE_RECOVERY_BUDGET_MS ?? 3_000);
/** Commands outlive every outage here: a 503 would be a failure of the test's books, not a finding. */
const COMMAND_DEADLINE_MS = 90_000;
jest.setTimeout(300_000);

/** Writes once to every counter at once; resolves with when the last write was acknowledged. */
async function writeEvery(actors: ActorClient, into: LoadResult): Promise<number> {
  await Promise.all(
    COUNTERS.map(async (id) => {
      const commandId = randomUUID();
      await actors.ask('counter', id, { op: 'add', n: 1 }, { commandId, deadlineMs: COMMAND_DEADLINE_MS });
      into.acked.set(id, [...(into.acked.get(id) ?? []), commandId]);
    }),
  );
  return Date.now();
}

interface Outcome {
  backAt: number;
  outageMs: number;
  recoveredMs: number;
  slowestMs: number;
  commands: number;
  /** The longest time no command was acknowledged: the outage as the clients felt it. */
  stallMs: number;
  /** Attempts the client sent again (this process's ActorClient), by reason. */
  retries: Record<string, number>;
  /** Whether other work than the test's took the machine meanwhile (then times are not judged). */
  cpuDuringOutage: CpuShare;
  /** The same from the dependency's return until every actor took a write: the window recoveredMs measures. */
  cpuDuringRecovery: CpuShare;
  /** The busier of the two windows (by other work): what the times are judged by. */
  cpu: CpuShare;
}

/** actors_client_retries_total of this process (the test's ActorClient), by reason. */
async function clientRetries(): Promise<Record<string, number>> {
  const metric = metricsRegistry.getSingleMetric('actors_client_retries_total');
  const values = metric ? (await metric.get()).values : [];
  return Object.fromEntries(values.map((v) => [String(v.labels.reason), v.value]));
}

const minus = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([reason, n]) => [reason, n - (before[reason] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );

/**
 * Multi-process recovery figures: three counter-node processes on a PostgreSQL and a NATS of this
 * file's own, under steady writes on 120 actors, while the test crashes, kills or slows a
 * dependency. Each scenario checks that no acknowledged write is lost, none is applied twice, and
 * how long after the dependency returned every actor took a write again.
 */
describe('recovery from dependency outages (three node processes)', () => {
  let pg: PrivatePostgres;
  let nats: PrivateNats;
  let cluster: CounterCluster;
  let actors: ActorClient;
  const figures: Record<string, Outcome> = {};

  beforeAll(async () => {
    await runAlone();
    [pg, nats] = await Promise.all([startPrivatePostgres(), startPrivateNats()]);
    cluster = counterCluster(pg.url, nats.url);
    // The first node migrates the fresh database; the others join it.
    await cluster.start(NODES[0], { LOG_LEVEL: 'info' });
    await Promise.all(NODES.slice(1).map((id) => cluster.start(id, { LOG_LEVEL: 'info' })));
    await cluster.waitForCoverage(NODES);
    ({ actors } = await cluster.client());
  }, RUN_ALONE_MAX_WAIT_MS + 300_000); // four processes and a fresh cluster start slowly on a loaded 2-core machine
  afterAll(async () => {
    console.log(`outage recovery figures: ${JSON.stringify(figures)}`);
    // The nodes' logs, for reading what an operator would have seen.
    mkdirSync('test/artifacts', { recursive: true });
    writeFileSync('test/artifacts/outages-figures.json', JSON.stringify(figures, null, 2));
    for (const [id, proc] of cluster?.nodes ?? []) writeFileSync(`test/artifacts/outages-${id}.log`, proc.output());
    await cluster?.close();
    await stopAllProcesses();
    await nats?.stop();
    await pg?.destroy();
  });

  /** Runs `outage` (which resolves once the dependency is back) under load and checks the books. */
  async function underLoad(name: string, outage: () => Promise<void>): Promise<Outcome> {
    const load = runCounterLoad(actors, COUNTERS, 20, COMMAND_DEADLINE_MS);
    const before = await eventually(load.ackedCount, (n) => n >= 100, { what: 'the load to get going' });
    const retriesBefore = await clientRetries();
    const stall = watchAckStall(load.ackedCount);
    const startedAt = Date.now();
    const cpu = startCpuAccounting();
    await outage();
    const backAt = Date.now();
    const cpuDuringOutage = cpu.stop();
    // Every actor takes a write again; the load goes on meanwhile.
    const recovery = startCpuAccounting();
    const probe: LoadResult = { acked: new Map(), failures: [], total: 0, slowestMs: 0 };
    const recoveredAt = await writeEvery(actors, probe);
    const cpuDuringRecovery = recovery.stop();
    const stallMs = stall.stop();
    const retries = minus(await clientRetries(), retriesBefore);
    const afterRecovery = load.ackedCount();
    await eventually(load.ackedCount, (n) => n >= afterRecovery + 100, { what: 'the load to go on' });
    const result = await load.stop();
    for (const [id, ids] of probe.acked) result.acked.set(id, [...(result.acked.get(id) ?? []), ...ids]);

    expect(result.failures).toEqual([]);
    expect(result.total).toBeGreaterThan(before);
    await verifyCounters(pg.url, result);
    // Applied once each: every counter's value is the number of commands recorded for it.
    const [mismatch] = await pg.query(
      `select s.id, s.state->>'value' as value, count(c.command_id) as commands
         from actor_snapshots s left join actor_commands c on c.kind = s.kind and c.actor_id = s.id
        where s.kind = 'counter' group by s.id, s.state having (s.state->>'value')::int <> count(c.command_id)`,
    );
    expect(mismatch).toBeUndefined();
    const outcome = {
      backAt,
      outageMs: backAt - startedAt,
      recoveredMs: recoveredAt - backAt,
      slowestMs: result.slowestMs,
      commands: result.total,
      stallMs,
      retries,
      cpuDuringOutage,
      cpuDuringRecovery,
      // Other work averaged over a long outage says little of the few seconds that were timed: 0.34 cores
      // over a 16 s outage (judged quiet) is 5 core-seconds, enough to take most of a 4 s recovery.
      cpu: cpuDuringRecovery.otherCores > cpuDuringOutage.otherCores ? cpuDuringRecovery : cpuDuringOutage,
    };
    figures[name] = outcome;
    console.log(`${name}: ${JSON.stringify(outcome)}`);
    return outcome;
  }

  it('survives a PostgreSQL crash (immediate shutdown, WAL recovery) under load', async () => {
    const outcome = await underLoad('postgres crash', async () => {
      await pg.crash();
      await pg.start();
    });
    // Felt: writes stopped while PostgreSQL was down, and the nodes answered "retry" meanwhile.
    expect(outcome.stallMs).toBeGreaterThanOrEqual(outcome.outageMs / 2);
    expect(outcome.retries.database_unavailable).toBeGreaterThan(0);
    judgeTimes(outcome.cpu, 'recovery', () => {
      expect(outcome.recoveredMs).toBeLessThan(RECOVERY_BUDGET_MS);
      expect(outcome.slowestMs).toBeLessThan(outcome.outageMs + RECOVERY_BUDGET_MS);
    });
  });

  it('keeps its shards through a 5 s NATS outage and serves again within seconds of NATS returning', async () => {
    // The previous scenario's aftermath first: after a PostgreSQL crash a loaded node may still drop and
    // claim shards (its presence session died with the database) for a few seconds.
    const settledFor3s = async () => {
      const before = new Map(NODES.map((id) => [id, cluster.nodes.get(id)!.output().length]));
      await sleep(3_000);
      return NODES.every(
        (id) => !/Dropped \d+ shards|Claimed \d+ shards/.test(cluster.nodes.get(id)!.output().slice(before.get(id))),
      );
    };
    await eventually(settledFor3s, (quiet) => quiet, {
      timeoutMs: 60_000,
      everyMs: 0,
      what: 'no shard moving for 3 s',
    });
    const logged = new Map(NODES.map((id) => [id, cluster.nodes.get(id)!.output().length]));
    const outcome = await underLoad('nats killed 5 s', async () => {
      await nats.kill();
      await sleep(5_000); // the outage itself
      await nats.start();
    });
    // Felt: no write went through for the 5 s, and attempts sent into the outage were sent again.
    expect(outcome.stallMs).toBeGreaterThanOrEqual(4_500);
    expect(outcome.retries.timeout ?? 0).toBeGreaterThan(0);
    // No shard moved for the blip: no node dropped any (for whatever reason) nor took another's over.
    for (const id of NODES) {
      const during = cluster.nodes.get(id)!.output().slice(logged.get(id));
      expect([id, during.match(/Dropped \d+ shards[^"]*|Nodes gone[^"]*/g)]).toEqual([id, null]);
    }
    judgeTimes(outcome.cpu, 'recovery', () => {
      expect(outcome.recoveredMs).toBeLessThan(RECOVERY_BUDGET_MS);
      expect(outcome.slowestMs).toBeLessThan(outcome.outageMs + RECOVERY_BUDGET_MS);
    });
  });

  it('rides out a slow PostgreSQL (snapshot table locked for 3 s) under load', async () => {
    const outcome = await underLoad('postgres locked 3 s', async () => {
      // A held lock: every snapshot write waits behind it, and the nodes' pools fill up.
      await pg.query(`do $$ begin lock table actor_snapshots in access exclusive mode; perform pg_sleep(3); end $$`);
    });
    // Felt: every write waited behind the lock (none failed, none needed a retry: they only waited).
    expect(outcome.stallMs).toBeGreaterThanOrEqual(2_700);
    judgeTimes(outcome.cpu, 'recovery', () => {
      expect(outcome.recoveredMs).toBeLessThan(RECOVERY_BUDGET_MS);
      expect(outcome.slowestMs).toBeLessThan(outcome.outageMs + RECOVERY_BUDGET_MS);
    });
  });

  it('stops serving when cut off from NATS for longer than its lease, and recovers when NATS returns', async () => {
    const urls = await Promise.all(NODES.map((id) => waitForUrl(cluster.nodes.get(id)!)));
    const outcome = await underLoad('nats killed past the lease', async () => {
      await nats.kill();
      // Cut off longer than the lease: every node stops serving and gives its leases back.
      await Promise.all(
        NODES.map((id) => cluster.nodes.get(id)!.waitFor(/Dropped \d+ shards: cut off from NATS/, 30_000)),
      );
      await eventually(cluster.owners, (owners) => owners.size === 0, {
        what: 'no live lease left',
        timeoutMs: 10_000,
      });
      for (const url of urls) expect((await fetch(`${url}/readyz`)).status).toBe(503);
      await nats.start();
    });
    await cluster.waitForCoverage(NODES, 15_000);
    // Felt: nothing was written while no node served, and the client kept sending.
    expect(outcome.stallMs).toBeGreaterThanOrEqual(outcome.outageMs * 0.9);
    expect(Object.values(outcome.retries).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    judgeTimes(outcome.cpu, 'recovery', () => expect(outcome.recoveredMs).toBeLessThan(RECOVERY_BUDGET_MS));
  });
});

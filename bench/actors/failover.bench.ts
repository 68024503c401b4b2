import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { randomUUID } from 'node:crypto';
import { ActorClient, DEFAULT_LEASE_TIMINGS, DEFAULT_MEMBERSHIP, shardOf } from '@app/actors';

import { CounterReply } from '../../test/fixtures/counter.actor';
import { actorClient, covered, leaseOwners, pool, startCounterNode, waitForPlacement } from '../lib/cluster';
import { percentile, round, sleep } from '../lib/stats';
import { stopAll } from '../lib/processes';
import { ACTORS_AREA, BenchEnv, Benchmark, Measured, figure } from '../lib/types';

const NODES = ['n1', 'n2', 'n3'];
const VICTIM = 'n2';
const SURVIVORS = NODES.filter((n) => n !== VICTIM);
/** Counters living on the victim, asked again after the kill. */
const SAMPLE = 20;
const GIVE_UP_MS = 40_000;
/** The load: this many counters, each written every 4 s by a client that waits 10 s at most. */
const LOAD_COUNTERS = 120;
const WRITE_EVERY_MS = 4_000;
const CLIENT_DEADLINE_MS = 10_000;
/** The failover goal: every actor writable again within 5 s of the kill, p99 of writes meanwhile under 5 s. */
const GOAL_S = 5;

interface Write {
  id: string;
  commandId: string;
  sentAt: number;
  ms: number;
  ok: boolean;
}

/** One write of `add 1`: one command id, given up after 10 s. */
async function writeOnce(actors: ActorClient, id: string, into: Write[]): Promise<Write> {
  const commandId = randomUUID();
  const sentAt = performance.now();
  let ok = true;
  try {
    await actors.ask('counter', id, { op: 'add', n: 1 }, { commandId, deadlineMs: CLIENT_DEADLINE_MS });
  } catch {
    ok = false;
  }
  const write = { id, commandId, sentAt, ms: performance.now() - sentAt, ok };
  into.push(write);
  return write;
}

/** Each counter on its own 4 s schedule, spread over the interval, one write at a time; until `stop()`. */
function steadyWrites(actors: ActorClient, ids: string[], into: Write[]): { stop(): Promise<void> } {
  let running = true;
  const writers = ids.map(async (id, i) => {
    await sleep((i * WRITE_EVERY_MS) / ids.length);
    while (running) {
      const { ms } = await writeOnce(actors, id, into);
      await sleep(Math.max(0, WRITE_EVERY_MS - ms));
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(writers);
    },
  };
}

/** Acknowledged writes missing from the database, and counters whose value is not their command count. */
async function books(pg: Pool, writes: Write[]): Promise<{ lost: number; appliedTwice: number }> {
  const acked = writes.filter((w) => w.ok).map((w) => w.commandId);
  const recorded = await pg.query<{ n: string }>(
    'select count(*) as n from actor_commands where command_id = any($1)',
    [acked],
  );
  const twice = await pg.query<{ n: string }>(
    `select count(*) as n from (select s.id from actor_snapshots s
       left join actor_commands c on c.kind = s.kind and c.actor_id = s.id
      where s.kind = 'counter' and s.id like 'steady-%' group by s.id, s.state
     having (s.state->>'value')::int <> count(c.command_id)) x`,
  );
  return { lost: acked.length - Number(recorded.rows[0].n), appliedTwice: Number(twice.rows[0].n) };
}

const secondsSince = (t0: number) => (performance.now() - t0) / 1000;

/** Seconds after `t0` until every shard is leased to the survivors only. */
async function leasesCovered(pg: Pool, t0: number): Promise<number> {
  while (secondsSince(t0) * 1000 < GIVE_UP_MS) {
    if (covered(await leaseOwners(pg), SURVIVORS)) return secondsSince(t0);
    await sleep(100);
  }
  throw new Error(`Shards of ${VICTIM} not leased to ${SURVIVORS.join(', ')} within ${GIVE_UP_MS} ms`);
}

/** Seconds after `t0` until a `get` to `id` answers; short attempts, so the answer is seen within ~0.3 s. */
async function answers(actors: ActorClient, id: string, t0: number): Promise<{ seconds: number; reply: CounterReply }> {
  while (secondsSince(t0) * 1000 < GIVE_UP_MS) {
    try {
      const reply = await actors.ask<CounterReply>(
        'counter',
        id,
        { op: 'get' },
        { attemptTimeoutMs: 250, deadlineMs: 250 },
      );
      return { seconds: secondsSince(t0), reply };
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`Counter ${id} did not answer within ${GIVE_UP_MS} ms of the kill`);
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 3);
  const { bus, actors } = await actorClient(env);
  try {
    const nodes = await Promise.all(NODES.map((id) => startCounterNode(env, id)));
    await waitForPlacement(pg, NODES, 45_000, nodes);
    const { rows } = await pg.query<{ shard: number }>(
      'select shard from shard_leases where owner = $1 and expires_at > now()',
      [VICTIM],
    );
    const victimShards = new Set(rows.map((r) => Number(r.shard)));
    const sample: string[] = [];
    for (let i = 0; sample.length < SAMPLE; i++)
      if (victimShards.has(shardOf(`failover-${i}`))) sample.push(`failover-${i}`);
    for (const id of sample) {
      const reply = await actors.ask<CounterReply>('counter', id, { op: 'add', n: 1 });
      if (reply.owner !== VICTIM) throw new Error(`Counter ${id} answered from ${reply.owner}, not ${VICTIM}`);
    }

    const steadyIds = Array.from({ length: LOAD_COUNTERS }, (_, i) => `steady-${i}`);
    const writes: Write[] = [];
    const steady = steadyWrites(actors, steadyIds, writes);
    await sleep(2 * WRITE_EVERY_MS);

    const victim = nodes[NODES.indexOf(VICTIM)];
    const expiry = await pg.query<{ s: string }>(
      'select extract(epoch from max(expires_at) - now()) as s from shard_leases where owner = $1',
      [VICTIM],
    );
    const t0 = performance.now();
    victim.child.kill('SIGKILL');
    const [leaseSeconds, probes, atKill] = await Promise.all([
      leasesCovered(pg, t0),
      Promise.all(sample.map((id) => answers(actors, id, t0))),
      // At the kill, one more write to every counter of the load: the last acknowledgement is when all took writes again.
      Promise.all(steadyIds.map((id) => writeOnce(actors, id, writes))),
    ]);
    await sleep(2 * WRITE_EVERY_MS);
    await steady.stop();
    const allWritable = Math.max(...atKill.map((w) => w.sentAt + w.ms - t0)) / 1000;
    const during = writes.filter((w) => w.sentAt + w.ms >= t0 && w.sentAt <= t0 + GOAL_S * 1000).map((w) => w.ms);
    const failed = writes.filter((w) => !w.ok).length;
    const { lost, appliedTwice } = await books(pg, writes);
    const moved = probes.filter((p) => SURVIVORS.includes(p.reply.owner) && p.reply.value === 1).length;
    if (moved !== SAMPLE)
      throw new Error(`Only ${moved} of ${SAMPLE} counters answered from a survivor with their state`);
    const answerSeconds = probes.map((p) => p.seconds);
    const lastAnswer = Math.max(...answerSeconds);
    const failover = Math.max(leaseSeconds, lastAnswer);
    const owners = await leaseOwners(pg);
    console.log(
      `  all shards on ${SURVIVORS.join(', ')} after ${leaseSeconds.toFixed(2)} s; ` +
        `last sampled counter answered after ${lastAnswer.toFixed(2)} s; every counter written after ${allWritable.toFixed(2)} s; ` +
        `p99 during ${percentile(during, 99).toFixed(0)} ms; failed ${failed}, lost ${lost}, applied twice ${appliedTwice}`,
    );

    return {
      method:
        `Three counter node processes on one database and NATS; once all 4096 shards are leased where placement puts them, ${SAMPLE} ` +
        `counters placed on ${VICTIM} are written once, and ${LOAD_COUNTERS} other counters are written as the domain failover test writes ` +
        `domains: each every ${WRITE_EVERY_MS / 1000} s, one write at a time, by a client that gives up after ` +
        `${CLIENT_DEADLINE_MS / 1000} s (ActorClient deadline; attempts of 5 s, probed each second). After two intervals ` +
        `${VICTIM} is killed with SIGKILL and, at the same moment, every one of the ${LOAD_COUNTERS} counters is written ` +
        `once more. Measured from the kill: until the shard_leases table shows all 4096 live leases on ` +
        `${SURVIVORS.join(' and ')} (polled every 100 ms) and a \`get\` to each of the ${SAMPLE} sampled counters ` +
        `answers from a survivor with its state (attempts of 250 ms, retried every 50 ms); until the last of the writes ` +
        `sent at the kill is acknowledged; the p99 of the writes in flight during the first ${GOAL_S} s; writes that ` +
        `failed; and afterwards, acknowledged writes missing from actor_commands and counters whose value is not ` +
        `their number of commands (applied twice). Baseline: the lease TTL ` +
        `(DEFAULT_LEASE_TIMINGS.ttlMs in libs/actors/src/shard-manager.ts), the floor for a crashed owner ` +
        `while the survivors waited for its leases to run out, before they took a gone node's shards over at once.`,
      figures: [
        figure({
          label: 'Until all shards of a SIGKILLed node are served again',
          value: round(failover, 2),
          unit: 's',
          baseline: { label: 'lease TTL, the floor before', value: DEFAULT_LEASE_TIMINGS.ttlMs / 1000 },
          goal: { of: 'value', atMost: GOAL_S },
        }),
        figure({
          label: `Until every one of ${LOAD_COUNTERS} counters written every 4 s takes a write again`,
          value: round(allWritable, 2),
          unit: 's',
          goal: { of: 'value', atMost: GOAL_S },
        }),
        figure({
          label: `p99 of the writes during the first ${GOAL_S} s`,
          value: round(percentile(during, 99)),
          unit: 'ms',
          goal: { of: 'value', atMost: GOAL_S * 1000 },
        }),
        figure({
          label: 'Writes failed (10 s client), lost after acknowledgement, or applied twice',
          value: failed + lost + appliedTwice,
          unit: '',
          goal: { of: 'value', atMost: 0 },
        }),
      ],
      details: {
        'Shards the killed node held': victimShards.size,
        'All 4096 leases on the survivors after, s': round(leaseSeconds, 2),
        'Sampled counters answering again, first / median / last, s': [
          Math.min(...answerSeconds),
          percentile(answerSeconds, 50),
          lastAnswer,
        ]
          .map((s) => s.toFixed(2))
          .join(' / '),
        "Killed node's leases ran out after (its last renewal + TTL), s": round(Number(expiry.rows[0].s), 2),
        'Shards per survivor afterwards': SURVIVORS.map((n) => `${n} ${owners.get(n) ?? 0}`).join(', '),
        'Writes during the run / during the first 5 s / failed / lost / applied twice': [
          writes.length,
          during.length,
          failed,
          lost,
          appliedTwice,
        ].join(' / '),
        'Slowest write, ms': round(Math.max(...writes.map((w) => w.ms))),
        'Membership TTL / heartbeat, s (liveness for placement; a killed node is found by the survivors each second)': `${DEFAULT_MEMBERSHIP.ttlMs / 1000} / ${DEFAULT_MEMBERSHIP.heartbeatMs / 1000}`,
        'Lease TTL / renewal, s': `${DEFAULT_LEASE_TIMINGS.ttlMs / 1000} / ${DEFAULT_LEASE_TIMINGS.renewEveryMs / 1000}`,
      },
    };
  } finally {
    await stopAll();
    await bus.close();
    await pg.end();
  }
}

export const failoverBench: Benchmark = {
  name: 'actors.failover',
  area: ACTORS_AREA,
  order: 4,
  title: 'Failover: time until the shards of a SIGKILLed node are served again',
  timeoutMs: 150_000,
  run,
};

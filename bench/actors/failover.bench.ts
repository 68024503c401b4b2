import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
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

    const victim = nodes[NODES.indexOf(VICTIM)];
    const expiry = await pg.query<{ s: string }>(
      'select extract(epoch from max(expires_at) - now()) as s from shard_leases where owner = $1',
      [VICTIM],
    );
    const t0 = performance.now();
    victim.child.kill('SIGKILL');
    const [leaseSeconds, probes] = await Promise.all([
      leasesCovered(pg, t0),
      Promise.all(sample.map((id) => answers(actors, id, t0))),
    ]);
    const moved = probes.filter((p) => SURVIVORS.includes(p.reply.owner) && p.reply.value === 1).length;
    if (moved !== SAMPLE)
      throw new Error(`Only ${moved} of ${SAMPLE} counters answered from a survivor with their state`);
    const answerSeconds = probes.map((p) => p.seconds);
    const lastAnswer = Math.max(...answerSeconds);
    const failover = Math.max(leaseSeconds, lastAnswer);
    const owners = await leaseOwners(pg);
    console.log(
      `  all shards on ${SURVIVORS.join(', ')} after ${leaseSeconds.toFixed(2)} s; ` +
        `last sampled counter answered after ${lastAnswer.toFixed(2)} s`,
    );

    return {
      method:
        `Three counter node processes on one database and NATS; once all 4096 shards are leased where placement puts them, ${SAMPLE} ` +
        `counters placed on ${VICTIM} are written once, then ${VICTIM} is killed with SIGKILL. Measured from the ` +
        `kill until both the shard_leases table shows all 4096 live leases on ${SURVIVORS.join(' and ')} (polled ` +
        `every 100 ms) and a \`get\` to each of the ${SAMPLE} counters answers from a survivor with its state ` +
        `(attempts of 250 ms, retried every 50 ms). Baseline: the lease TTL ` +
        `(DEFAULT_LEASE_TIMINGS.ttlMs in libs/actors/src/shard-manager.ts), the floor for a crashed owner ` +
        `(counted from its last renewal, so up to one renewal interval less from the kill).`,
      figures: [
        figure({
          label: 'Until all shards of a SIGKILLed node are served again',
          value: round(failover, 2),
          unit: 's',
          baseline: { label: 'lease TTL, the floor', value: DEFAULT_LEASE_TIMINGS.ttlMs / 1000 },
          goal: { of: 'value', atMost: 20 },
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
        'Membership TTL / heartbeat, s': `${DEFAULT_MEMBERSHIP.ttlMs / 1000} / ${DEFAULT_MEMBERSHIP.heartbeatMs / 1000}`,
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
  timeoutMs: 100_000,
  run,
};

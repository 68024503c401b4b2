import { ActorClient, member, ownerOf } from '@app/actors';
import { NatsBus } from '@app/bus';
import { Pool } from 'pg';
import { built } from './paths';
import { Child, startScript } from './processes';
import { serviceArgs } from './service-args';
import { sleep } from './stats';
import { BenchEnv } from './types';

export const SHARDS = 4096;
/** Nodes refuse to start without one (secrets at rest); nothing here is secret. */
const BENCH_ENCRYPTION_KEY = 'bench-encryption-key-0123456789abcdef0123';

/** A counter-actor node (test/fixtures/counter-node.main.ts) as its own process; resolves once it serves. */
export async function startCounterNode(env: BenchEnv, nodeId: string, extraEnv: Record<string, string> = {}) {
  const node = startScript(
    nodeId,
    built('test/fixtures/counter-node.main'),
    {
      DATABASE_URL: env.databaseUrl,
      NATS_URL: env.natsUrl,
      NATS_SUBJECT_PREFIX: env.prefix,
      NODE_ID: nodeId,
      ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
      PORT: '0',
      ...extraEnv,
    },
    // A test fixture, not apps/node: BENCH_NODE_ARGS only, without the node's V8 flags.
    serviceArgs('other'),
  );
  await node.waitFor(/counter node \S+ up on (http:\/\/127\.0\.0\.1:\d+)/, 45_000);
  return node;
}

/** Live lease owners and how many shards each holds. */
export async function leaseOwners(pg: Pool): Promise<Map<string, number>> {
  const { rows } = await pg.query<{ owner: string; n: string }>(
    'select owner, count(*) as n from shard_leases where owner is not null and expires_at > now() group by owner',
  );
  return new Map(rows.map((r) => [r.owner, Number(r.n)]));
}

/** Whether every shard is leased to one of `nodeIds`, each of which holds some. */
export function covered(owners: Map<string, number>, nodeIds: string[]): boolean {
  const total = [...owners.values()].reduce((a, b) => a + b, 0);
  return (
    total === SHARDS && [...owners.keys()].every((o) => nodeIds.includes(o)) && nodeIds.every((id) => owners.has(id))
  );
}

export async function waitForCoverage(pg: Pool, nodeIds: string[], timeoutMs: number, nodes: Child[] = []) {
  const deadline = Date.now() + timeoutMs;
  let owners = new Map<string, number>();
  while (Date.now() < deadline) {
    owners = await leaseOwners(pg).catch(() => new Map<string, number>());
    if (covered(owners, nodeIds)) return owners;
    const dead = nodes.find((n) => n.child.exitCode !== null || n.child.signalCode !== null);
    if (dead) throw new Error(`${dead.name} exited; output:\n${dead.output()}`);
    await sleep(100);
  }
  throw new Error(`Shards not covered by ${nodeIds.join(', ')} in ${timeoutMs} ms: ${JSON.stringify([...owners])}`);
}

/**
 * Waits until the leases match rendezvous placement over `nodeIds` exactly: the cluster has settled.
 * (Coverage alone can be transient while nodes that started together still hand shards over.)
 */
export async function waitForPlacement(pg: Pool, nodeIds: string[], timeoutMs: number, nodes: Child[] = []) {
  const members = nodeIds.map(member);
  const expected = Array.from({ length: SHARDS }, (_, shard) => ownerOf(shard, members));
  const deadline = Date.now() + timeoutMs;
  let misplaced = SHARDS;
  while (Date.now() < deadline) {
    const { rows } = await pg.query<{ shard: number; owner: string }>(
      'select shard, owner from shard_leases where owner is not null and expires_at > now()',
    );
    const owners = new Map(rows.map((r) => [Number(r.shard), r.owner]));
    misplaced = expected.filter((owner, shard) => owners.get(shard) !== owner).length;
    if (!misplaced) return;
    const dead = nodes.find((n) => n.child.exitCode !== null || n.child.signalCode !== null);
    if (dead) throw new Error(`${dead.name} exited; output:\n${dead.output()}`);
    await sleep(100);
  }
  throw new Error(`${misplaced} shards still not where placement over ${nodeIds.join(', ')} puts them`);
}

/** The benchmark's own client: the same ActorClient over NatsBus the api process uses. */
export async function actorClient(env: BenchEnv): Promise<{ bus: NatsBus; actors: ActorClient }> {
  const bus = await NatsBus.connect([env.natsUrl], 'bench-client', env.prefix);
  return { bus, actors: new ActorClient(bus) };
}

export const counterIds = (n: number) => Array.from({ length: n }, (_, i) => `bench-${i.toString().padStart(6, '0')}`);

/** The benchmark's own connections: PostgreSQL CPU figures leave them out (see databaseCpu). */
export const BENCH_APPLICATION_NAME = 'bench';

/** A pg pool that survives its connections being cut (the database is dropped with force at the end). */
export function pool(env: BenchEnv, max: number): Pool {
  const pg = new Pool({ connectionString: env.databaseUrl, max, application_name: BENCH_APPLICATION_NAME });
  pg.on('error', () => undefined);
  return pg;
}

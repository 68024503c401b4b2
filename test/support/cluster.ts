import { ActorClient } from '@app/actors';
import { NatsBus } from '@app/bus';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { eventually } from './eventually';
import { ServiceProcess, startProcess, waitForUrl } from './processes';
import { TEST_ADMIN_TOKEN, TEST_ENCRYPTION_KEY, TEST_SIGNING_SECRET } from './test-app';

export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A namespace of its own on the shared NATS, so concurrent test files never see each other. */
export function uniqueSubjectPrefix(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

/** What every split process (api, node) of a test needs: the test database, the shared NATS under `prefix`, test secrets. */
export function clusterProcessEnv(databaseUrl: string, prefix = uniqueSubjectPrefix()): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    NATS_URL: TEST_NATS_URL,
    NATS_SUBJECT_PREFIX: prefix,
    PORT: '0',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SIGNING_SECRET: TEST_SIGNING_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  };
}

export interface CounterCluster {
  prefix: string;
  nodes: Map<string, ServiceProcess>;
  start(nodeId: string, extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  client(): Promise<{ bus: NatsBus; actors: ActorClient }>;
  /** Live lease owners and how many shards each holds. */
  owners(): Promise<Map<string, number>>;
  /** Every shard's live owner. */
  leaseTable(): Promise<{ shard: number; owner: string }[]>;
  /** Waits until every shard is leased to one of `nodeIds` (and those only). */
  waitForCoverage(nodeIds: string[], timeoutMs?: number): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/** Counter-actor nodes as separate OS processes on one database and a private NATS namespace. */
export function counterCluster(databaseUrl: string, natsUrl = TEST_NATS_URL): CounterCluster {
  const prefix = uniqueSubjectPrefix();
  const nodes = new Map<string, ServiceProcess>();
  const buses: NatsBus[] = [];
  const query = async <T>(sql: string): Promise<T[]> => {
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    try {
      return (await pg.query(sql)).rows as T[];
    } finally {
      await pg.end();
    }
  };
  const owners = async () => {
    const rows = await query<{ owner: string; n: string }>(
      'select owner, count(*) as n from shard_leases where owner is not null and expires_at > now() group by owner',
    );
    return new Map(rows.map((r) => [r.owner, Number(r.n)]));
  };
  return {
    prefix,
    nodes,
    owners,
    async start(nodeId, extraEnv = {}) {
      const proc = startProcess('dist/test/fixtures/counter-node.main.js', {
        DATABASE_URL: databaseUrl,
        NATS_URL: natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        NODE_ID: nodeId,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        PORT: '0',
        ...extraEnv,
      });
      nodes.set(nodeId, proc);
      await waitForUrl(proc, 120_000); // a loaded 2-core machine starts a node slowly
      return proc;
    },
    leaseTable: () =>
      query<{ shard: number; owner: string }>(
        'select shard, owner from shard_leases where owner is not null and expires_at > now() order by shard',
      ),
    async client() {
      const bus = await NatsBus.connect([natsUrl], 'test-client', prefix);
      buses.push(bus);
      return { bus, actors: new ActorClient(bus) };
    },
    waitForCoverage: (nodeIds, timeoutMs = 30_000) =>
      eventually(
        owners,
        (current) =>
          [...current.values()].reduce((a, b) => a + b, 0) === 4096 &&
          [...current.keys()].every((o) => nodeIds.includes(o)) &&
          nodeIds.every((id) => current.has(id)),
        { timeoutMs, everyMs: 200, what: `every shard leased to ${nodeIds.join(',')} only` },
      ),
    async close() {
      await Promise.all([...nodes.values()].map((n) => n.stop(15_000)));
      await Promise.all(buses.map((b) => b.close()));
    },
  };
}

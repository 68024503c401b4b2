import { shardOf } from '@app/actors';
import {
  CounterCluster,
  LoadResult,
  PrivateNats,
  TestDatabase,
  counterCluster,
  createTestDatabase,
  eventually,
  runCounterLoad,
  sleep,
  startPrivateNats,
  stopAllProcesses,
  verifyCounters,
  waitForUrl,
} from '@test/support';
import { Client } from 'pg';

async function scalar(url: string, sql: string, params: unknown[] = []): Promise<string> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    return String(Object.values((await pg.query(sql, params)).rows[0] ?? {})[0]);
  } finally {
    await pg.end();
  }
}

/** Every live lease as `shard -> owner@epoch`. */
async function leaseEpochs(url: string): Promise<Map<number, string>> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ shard: number; owner: string; epoch: string }>(
      'select shard, owner, epoch from shard_leases where owner is not null and expires_at > now()',
    );
    return new Map(rows.map((r) => [Number(r.shard), `${r.owner}@${r.epoch}`]));
  } finally {
    await pg.end();
  }
}

async function metric(baseUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** Past the ~1 s in which a killed node's shards are taken over, well inside a 10 s lease. */
const PAUSED_PAST_TAKE_OVER_MS = 3_000;

describe('fencing and lease safety', () => {
  let db: TestDatabase;
  let cluster: CounterCluster;
  let nats: PrivateNats | undefined;

  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    for (const proc of cluster?.nodes.values() ?? []) proc.child.kill('SIGCONT');
    await cluster?.close();
    await stopAllProcesses();
    await nats?.stop();
    nats = undefined;
    await db?.drop();
  });

  it('refuses the writes of a stale owner paused past its lease, which then drops the shard', async () => {
    cluster = counterCluster(db.url);
    const n1 = await cluster.start('n1');
    await cluster.start('n2');
    await cluster.waitForCoverage(['n1', 'n2']);
    const n1Url = await waitForUrl(n1);
    const table = await cluster.leaseTable();
    const n1Shards = new Set(table.filter((r) => r.owner === 'n1').map((r) => r.shard));
    let id = '';
    for (let i = 0; !id; i++) if (n1Shards.has(shardOf(`stale-${i}`))) id = `stale-${i}`;
    const { actors } = await cluster.client();
    expect((await actors.ask<{ value: number; owner: string }>('counter', id, { op: 'add', n: 1 })).owner).toBe('n1');

    // A slow command is mid-handler on n1 when n1 freezes.
    const slow = actors.ask<{ value: number; owner: string }>(
      'counter',
      id,
      { op: 'add', n: 10, delayMs: 1_500 },
      { deadlineMs: 40_000 },
    );
    // Time must pass: the command has to be running inside n1's handler (1.5 s long) when n1 freezes,
    // and nothing outside the handler shows that it started.
    await sleep(300);
    n1.child.kill('SIGSTOP');
    const frozenAt = Date.now();
    await cluster.waitForCoverage(['n2'], 25_000);

    // n2 now answers for the actor; the slow command's retry lands there and is applied once.
    const meanwhile = await actors.ask<{ value: number; owner: string }>('counter', id, { op: 'add', n: 100 });
    expect(meanwhile.owner).toBe('n2');
    const slowReply = await slow;
    expect(slowReply.owner).toBe('n2');

    n1.child.kill('SIGCONT');
    await n1.waitFor(/Dropped \d+ shards/, 10_000);
    await eventually(
      () => metric(n1Url, 'actors_fenced_writes_total'),
      (n) => n >= 1,
      { what: 'a fenced write on n1', timeoutMs: 10_000 },
    );
    expect(Date.now() - frozenAt).toBeGreaterThan(10_000);

    const value = await scalar(
      db.url,
      "select state->>'value' from actor_snapshots where kind = 'counter' and id = $1",
      [id],
    );
    expect(Number(value)).toBe(111);
    const final = await actors.ask<{ value: number }>('counter', id, { op: 'get' });
    expect(final.value).toBe(111);
  });

  it('keeps serving through a NATS blip, but stops and gives its leases back when cut off longer than a lease', async () => {
    nats = await startPrivateNats();
    cluster = counterCluster(db.url, nats.url);
    const n1 = await cluster.start('n1');
    await cluster.waitForCoverage(['n1']);
    const n1Url = await waitForUrl(n1);
    expect(await metric(n1Url, 'actors_shards_owned')).toBe(4096);
    await nats.kill();
    const cutAt = Date.now();
    // Still the owner for a while: its leases in PostgreSQL are valid and renewed.
    expect(await metric(n1Url, 'actors_shards_owned')).toBe(4096);
    await n1.waitFor(/Dropped 4096 shards: cut off from NATS/, 30_000);
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(9_000);
    expect(await metric(n1Url, 'actors_shards_owned')).toBe(0);
    // The release follows the drop.
    await eventually(
      () => scalar(db.url, "select count(*) from shard_leases where owner = 'n1' and expires_at > now()"),
      (live) => Number(live) === 0,
      { what: "n1's leases to be released", timeoutMs: 10_000 },
    );
    expect((await fetch(`${n1Url}/readyz`)).status).toBe(503);
  });

  it('takes nothing from a node paused just past the take-over bound: resumed, it serves on, every write applied once', async () => {
    cluster = counterCluster(db.url);
    await Promise.all(['n1', 'n2', 'n3'].map((id) => cluster.start(id)));
    await cluster.waitForCoverage(['n1', 'n2', 'n3']);
    const n2 = cluster.nodes.get('n2')!;
    const n2Url = await waitForUrl(n2);
    const { actors } = await cluster.client();
    const counters = Array.from({ length: 120 }, (_, i) => `paused-${i}`);
    const load = runCounterLoad(actors, counters, 20, 60_000);
    let during: Map<number, string>;
    let before: Map<number, string>;
    let result: LoadResult;
    try {
      await eventually(load.ackedCount, (n) => n >= 100, { what: 'the load to get going' });
      before = await leaseEpochs(db.url);
      n2.child.kill('SIGSTOP');
      // A killed node's shards are taken over within about a second (the survivors look each second);
      // a paused one keeps its presence session and its NATS subscriptions, so nothing is taken.
      await sleep(PAUSED_PAST_TAKE_OVER_MS);
      during = await leaseEpochs(db.url);
      n2.child.kill('SIGCONT');
      const resumedAt = load.ackedCount();
      await eventually(load.ackedCount, (n) => n >= resumedAt + 200, { what: 'the load to go on after SIGCONT' });
    } finally {
      // Stopped before the bus closes, whatever happened: a load left running spins on instant failures.
      result = await load.stop();
    }
    const n2Before = [...before].filter(([, lease]) => lease.startsWith('n2@'));
    expect(n2Before.length).toBeGreaterThan(1000);
    for (const [shard, lease] of n2Before) expect(`${shard} ${during.get(shard)}`).toBe(`${shard} ${lease}`);
    expect(result.failures).toEqual([]);
    // Applied once each, by one owner at a time (epochs rise between owners, never overlapping).
    await verifyCounters(db.url, result);
    expect(await metric(n2Url, 'actors_fenced_writes_total')).toBe(0);
    expect(n2.output()).not.toMatch(/Dropped \d+ shards/);
    expect([...(await cluster.owners()).keys()].sort()).toEqual(['n1', 'n2', 'n3']);
  });
});

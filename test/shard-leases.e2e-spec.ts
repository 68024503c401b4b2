import { Lease, LeaseRepository, fenceSql } from '@app/actors';
import { MikroSqlExecutor, SqlExecutor } from '@app/persistence';
import { SqlDatabase, startSqlDatabase } from '@test/support';

/** The group commit's fence (`fenceSql`) on its own in `tx`: the epochs of the shards `owner` holds live. */
async function fencedEpochs(tx: SqlExecutor, owner: string, shards: number[]): Promise<Map<number, number>> {
  const held = await tx.query<{ shard: number; epoch: string }>(fenceSql('?', '?'), [shards, owner]);
  return new Map(held.map((row) => [Number(row.shard), Number(row.epoch)]));
}

/**
 * The lease statements on a real PostgreSQL.
 * Renewal sends its arrays (512 leases per statement) as bound parameters and answers only the shards it lost.
 */
describe('shard leases in PostgreSQL', () => {
  let sql: SqlDatabase;
  let db: MikroSqlExecutor;
  let leases: LeaseRepository;
  const expiry = async (shards: number[]) =>
    (
      await db.query<{ shard: number; ms: number }>(
        `select shard, extract(epoch from expires_at - now()) * 1000 as ms from shard_leases
         where shard = any(?::int[]) order by shard`,
        [shards],
      )
    ).map((r) => Number(r.ms));

  beforeAll(async () => {
    // Only the database and its migrations: no node here holds leases of its own.
    sql = await startSqlDatabase();
    db = sql.db;
    leases = new LeaseRepository(db, 10_000);
  });
  afterAll(() => sql?.close());

  it('renews the leases still held at their epochs and names each one that was not', async () => {
    const held = await leases.claim('node-a', [1, 2, 3, 4]);
    expect(held.map((l) => l.shard).sort()).toEqual([1, 2, 3, 4]);
    await expect(leases.renew('node-a', held)).resolves.toEqual([]);

    // Shard 2 ran out; shard 3 ran out and node-b took it; shard 4 node-a claimed again (a new epoch).
    await db.query(`update shard_leases set expires_at = now() - interval '1 second' where shard in (2, 3)`);
    await expect(leases.claim('node-b', [3])).resolves.toHaveLength(1);
    const [again] = await leases.claim('node-a', [4]);
    expect(again.epoch).toBe(held.find((l) => l.shard === 4)!.epoch + 1);
    await db.query(`update shard_leases set expires_at = now() + interval '1 second' where shard = 1`);

    const lost = await leases.renew('node-a', held);
    expect(lost.sort()).toEqual([2, 3, 4]);
    // Shard 1 was extended by a whole TTL; shard 3 stays node-b's.
    const [one] = await expiry([1]);
    expect(one).toBeGreaterThan(9_000);
    const [owner3] = await db.query<{ owner: string }>('select owner from shard_leases where shard = 3');
    expect(owner3.owner).toBe('node-b');
    // The lease at its current epoch renews.
    await expect(leases.renew('node-a', [again])).resolves.toEqual([]);
    await leases.release('node-a', [1, 4]);
    await leases.release('node-b', [3]);
  });

  it("holds a fenced write's shards against another node's claim, not against its own node's renewal", async () => {
    const held = await leases.claim('node-e', [7, 8]);
    let releaseWrite!: () => void;
    const writeMayEnd = new Promise<void>((resolve) => (releaseWrite = resolve));
    let fenced!: () => void;
    const isFenced = new Promise<void>((resolve) => (fenced = resolve));
    // A group commit's transaction, fenced on both shards and then stuck (as behind a row lock).
    const write = db.transaction(async (tx) => {
      const epochs = await fencedEpochs(tx, 'node-e', [7, 8]);
      expect([...epochs.keys()].sort()).toEqual([7, 8]);
      fenced();
      await writeMayEnd;
    });
    await isFenced;
    const after = (ms: number) => new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms).unref());
    let claimed: Lease[] | undefined;
    let claim: Promise<unknown> = Promise.resolve();
    try {
      // The node's own renewal goes through at once (with `for share` it waited for the write).
      const renewal = leases.renew('node-e', held);
      await expect(Promise.race([renewal, after(2_000)])).resolves.toEqual([]);
      // Shard 8 runs out meanwhile; another node's claim of it waits for the write to end.
      await db.query(`update shard_leases set expires_at = now() - interval '1 second' where shard = 8`);
      claim = leases.claim('node-f', [8]).then((taken) => (claimed = taken));
      await after(500);
      expect(claimed).toBeUndefined();
    } finally {
      releaseWrite();
      await write;
      await claim;
    }
    expect(claimed).toEqual([{ shard: 8, epoch: held.find((l) => l.shard === 8)!.epoch + 1 }]);
    // The stale owner's next fence finds the shard gone.
    await expect(db.transaction((tx) => fencedEpochs(tx, 'node-e', [7, 8]))).resolves.toEqual(
      new Map([[7, held.find((l) => l.shard === 7)!.epoch]]),
    );
    await leases.release('node-e', [7]);
    await leases.release('node-f', [8]);
  });

  it('renews every shard of a node that holds them all, chunk by chunk, and names a lost one in any chunk', async () => {
    const all = Array.from({ length: 4096 }, (_, shard) => shard);
    const held: Lease[] = await leases.claim('node-c', all);
    expect(held).toHaveLength(4096);
    await db.query(`update shard_leases set expires_at = now() + interval '1 second'`);
    await expect(leases.renew('node-c', held)).resolves.toEqual([]);
    const left = await expiry(all);
    expect(Math.min(...left)).toBeGreaterThan(9_000);
    // Lost in the first chunk and in the last: both named.
    await db.query(`update shard_leases set expires_at = now() - interval '1 second' where shard in (7, 4000)`);
    await expect(leases.claim('node-e', [4000])).resolves.toHaveLength(1);
    expect((await leases.renew('node-c', held)).sort((a, b) => a - b)).toEqual([7, 4000]);
    // Another owner's renewal of them renews none.
    expect((await leases.renew('node-d', held)).length).toBe(4096);
    await leases.release('node-c', all);
    await leases.release('node-e', [4000]);
  });
});

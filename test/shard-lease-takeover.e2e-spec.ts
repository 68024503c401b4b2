import { LeaseRepository, PRESENCE_LOCK_CLASS, PgPresence, PresenceLostError } from '@app/actors';
import { DedicatedSqlExecutor } from '@app/persistence';
import { TestDatabase, createTestDatabase } from '@test/support';
import { Client } from 'pg';

/**
 * Taking over the leases of a killed node before they expire, on a real PostgreSQL: only while no
 * session of that node holds its presence lock and NATS says it is gone too, and never in a way that
 * lets the old owner renew afterwards. The presence sessions here are real connections that end.
 */
describe('taking over the leases of a node gone from PostgreSQL and NATS', () => {
  let database: TestDatabase;
  let db: DedicatedSqlExecutor;
  const presences: PgPresence[] = [];

  const present = async (nodeId: string) => {
    const presence = new PgPresence(database.url, nodeId);
    presences.push(presence);
    await presence.start();
    return { presence, leases: new LeaseRepository(db, 10_000, presence) };
  };
  const owner = async (shard: number) =>
    (
      await db.query<{ owner: string; epoch: string }>('select owner, epoch from shard_leases where shard = ?', [shard])
    )[0];
  const gone = (owners: string[]) => ({ owners, stillGone: async (ids: string[]) => ids });
  const onNats = (owners: string[]) => ({ owners, stillGone: async () => [] });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = DedicatedSqlExecutor.open(database.url, 4, 5_000);
  });
  afterAll(async () => {
    await Promise.all(presences.map((p) => p.close()));
    await db?.close();
    await database?.drop();
  });

  it('takes nothing from a node that holds its presence lock (paused, slow: its session lives)', async () => {
    const a = await present('paused-a');
    const b = await present('survivor-b');
    const [held] = await a.leases.claim('paused-a', [10]);
    expect(await b.leases.ownersWithoutPresence('survivor-b')).not.toContain('paused-a');
    // Even if NATS said it is gone, the lock it holds refuses the take-over.
    await expect(b.leases.claim('survivor-b', [10], gone(['paused-a']))).resolves.toEqual([]);
    expect((await owner(10)).owner).toBe('paused-a');
    await expect(a.leases.renew('paused-a', [held])).resolves.toEqual([]);
  });

  it('takes over the live lease of a node whose session ended and that NATS no longer knows', async () => {
    const a = await present('killed-a');
    const b = await present('survivor-c');
    const [held] = await a.leases.claim('killed-a', [20, 21]);
    await a.presence.close(); // the session ends, as when the kernel closes a killed process's socket
    expect(await b.leases.ownersWithoutPresence('survivor-c')).toContain('killed-a');

    // Still on NATS (cut off from PostgreSQL only): not taken.
    await expect(b.leases.claim('survivor-c', [20], onNats(['killed-a']))).resolves.toEqual([]);
    // Without naming it as gone, an unexpired lease is not free either.
    await expect(b.leases.claim('survivor-c', [20])).resolves.toEqual([]);
    // Gone from both: taken long before its lease runs out, at the next epoch.
    const taken = await b.leases.claim('survivor-c', [20], gone(['killed-a']));
    expect(taken).toEqual([{ shard: 20, epoch: held.epoch + 1 }]);
    expect((await owner(20)).owner).toBe('survivor-c');
    expect((await owner(21)).owner).toBe('killed-a');
  });

  it('holds the gone node off its lock while taking over, so it cannot renew in between', async () => {
    const a = await present('stale-a');
    const b = await present('survivor-d');
    const [held] = await a.leases.claim('stale-a', [30]);
    await a.presence.close();
    const probe = new Client({ connectionString: database.url });
    await probe.connect();
    let relockedDuringTakeOver: boolean | undefined;
    try {
      await b.leases.claim('survivor-d', [30], {
        owners: ['stale-a'],
        stillGone: async (ids) => {
          // The old node coming back now would try to take its lock before renewing: refused.
          const { rows } = await probe.query<{ held: boolean }>(
            'select pg_try_advisory_lock($1, hashtext($2)) as held',
            [PRESENCE_LOCK_CLASS, 'stale-a'],
          );
          relockedDuringTakeOver = rows[0].held;
          return ids;
        },
      });
    } finally {
      await probe.end();
    }
    expect(relockedDuringTakeOver).toBe(false);
    // Back with a new session afterwards, its renewal finds the lease gone: it stops serving the shard.
    const again = await present('stale-a');
    await expect(again.leases.renew('stale-a', [held])).resolves.toEqual([30]);
  });

  it('refuses to renew or claim without its presence session, as a failed renewal rather than a lost lease', async () => {
    const a = await present('lost-presence-a');
    const [held] = await a.leases.claim('lost-presence-a', [40]);
    await a.presence.close();
    await expect(a.leases.renew('lost-presence-a', [held])).rejects.toBeInstanceOf(PresenceLostError);
    await expect(a.leases.claim('lost-presence-a', [41])).rejects.toBeInstanceOf(PresenceLostError);
    // The lease itself is untouched: a node whose session comes back renews it.
    const back = await present('lost-presence-a');
    await expect(back.leases.renew('lost-presence-a', [held])).resolves.toEqual([]);
  });

  it("renews and claims only while this node's own presence session holds the lock (checked by PostgreSQL)", async () => {
    const a = await present('own-session-a');
    const [held] = await a.leases.claim('own-session-a', [50]);
    // A session that does not hold the lock, as a presence session that ended before the node noticed.
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      const { rows } = await other.query<{ pid: number }>('select pg_backend_pid() as pid');
      const stale = new LeaseRepository(db, 10_000, { pid: () => rows[0].pid });
      await expect(stale.renew('own-session-a', [held])).rejects.toBeInstanceOf(PresenceLostError);
      await expect(stale.claim('own-session-a', [51])).resolves.toEqual([]);
    } finally {
      await other.end();
    }
    await expect(a.leases.renew('own-session-a', [held])).resolves.toEqual([]);
  });
});

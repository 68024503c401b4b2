import { JsonSnapshotStore, LeaseRepository, OutboxEvent } from '@app/actors';
import { MikroSqlExecutor } from '@app/persistence';
import { SqlDatabase, startSqlDatabase } from '@test/support';
import { FencedError, VersionConflictError } from '../libs/actors/src/actor.types';
import { PendingWrite, SnapshotWriter } from '../libs/actors/src/snapshot-writer';

/**
 * The group commit's one statement on a real PostgreSQL: in one batch, each write is judged alone
 * (written, fenced by its shard's lease, or a version conflict), and only a written snapshot's
 * events and command record are stored.
 */
describe('group commit in one statement', () => {
  let sql: SqlDatabase;
  let db: MikroSqlExecutor;
  let leases: LeaseRepository;
  const store = new JsonSnapshotStore<{ n: number }>('tally');
  const fencedShards: number[] = [];

  beforeAll(async () => {
    sql = await startSqlDatabase();
    db = sql.db;
    leases = new LeaseRepository(db, 60_000);
  });
  afterAll(() => sql?.close());

  const event = (id: string): OutboxEvent => ({ type: 'tally.added', workspaceId: 'ws_1', data: { id } });
  const write = (id: string, shard: number, epoch: number, expectedVersion: number, n: number): PendingWrite => ({
    kind: 'tally',
    store,
    id,
    shard,
    epoch,
    state: { n },
    expectedVersion,
    events: [event(id)],
    command: { id: `cmd_${id}_${expectedVersion}`, reply: { n } },
  });
  /** The outcome of each write: 'written', the writer's error's name, or the database's message. */
  const outcomes = (writes: Promise<void>[]) =>
    Promise.all(
      writes.map((w) =>
        w.then(
          () => 'written',
          (error: Error) =>
            error instanceof FencedError || error instanceof VersionConflictError ? error.name : error.message,
        ),
      ),
    );
  const rows = async (table: string, column: string) =>
    (await db.query<{ id: string }>(`select ${column} as id from ${table} order by 1`)).map((r) => r.id);

  it('writes, fences and refuses conflicts write by write, with events only for what was written', async () => {
    const [one, two] = await leases.claim('node-w', [1, 2]);
    const writer = new SnapshotWriter(db, 'node-w', (shard) => fencedShards.push(shard));
    await writer.submit(write('t_old', 1, one.epoch, 0, 1));
    await writer.submit(write('t_dup', 1, one.epoch, 0, 1));

    // Submitted together: one group commit.
    const results = await outcomes([
      writer.submit(write('t_new', 1, one.epoch, 0, 1)),
      writer.submit(write('t_old', 1, one.epoch, 1, 2)),
      writer.submit(write('t_stale_epoch', 2, two.epoch - 1, 0, 1)),
      writer.submit(write('t_not_held', 3, 1, 0, 1)),
      writer.submit(write('t_conflict', 1, one.epoch, 4, 1)),
      // An insert of an id that exists: a conflict, not a second row.
      writer.submit(write('t_dup', 1, one.epoch, 0, 9)),
    ]);
    expect(results).toEqual([
      'written',
      'written',
      'FencedError',
      'FencedError',
      'VersionConflictError',
      'VersionConflictError',
    ]);
    expect(fencedShards.sort()).toEqual([2, 3]);

    const states = await db.query<{ id: string; state: { n: number }; version: string }>(
      `select id, state, version from actor_snapshots where kind = 'tally' order by id`,
    );
    expect(states.map((r) => [r.id, r.state.n, Number(r.version)])).toEqual([
      ['t_dup', 1, 1],
      ['t_new', 1, 1],
      ['t_old', 2, 2],
    ]);
    expect(await rows('outbox_events', 'aggregate_id')).toEqual(['t_dup', 't_new', 't_old', 't_old']);
    expect(await rows('actor_commands', 'command_id')).toEqual([
      'cmd_t_dup_0',
      'cmd_t_new_0',
      'cmd_t_old_0',
      'cmd_t_old_1',
    ]);

    // A lease taken by another node fences the old owner's next write.
    await db.query(`update shard_leases set expires_at = now() - interval '1 second' where shard = 1`);
    await leases.claim('node-x', [1]);
    await expect(writer.submit(write('t_old', 1, one.epoch, 2, 3))).rejects.toBeInstanceOf(FencedError);
    expect((await rows('actor_snapshots', 'version')).map(Number)).toEqual([1, 1, 2]);
    expect(await rows('outbox_events', 'aggregate_id')).toHaveLength(4);
  });

  it('fails only the write the database refuses, not its neighbours', async () => {
    const [lease] = await leases.claim('node-y', [5]);
    const writer = new SnapshotWriter(db, 'node-y');
    const bad = {
      ...write('t_bad', 5, lease.epoch, 0, 1),
      events: [{ ...event('t_bad'), workspaceId: null as never }],
    };
    const results = await outcomes([
      writer.submit(write('t_good_a', 5, lease.epoch, 0, 1)),
      writer.submit(bad),
      writer.submit(write('t_good_b', 5, lease.epoch, 0, 1)),
    ]);
    expect(results[0]).toBe('written');
    expect(results[1]).toMatch(/null value in column "workspace_id"/);
    expect(results[2]).toBe('written');
    const written = await db.query<{ id: string }>(
      `select id from actor_snapshots where id like 't_good_%' or id = 't_bad'`,
    );
    expect(written.map((r) => r.id).sort()).toEqual(['t_good_a', 't_good_b']);
  });
});

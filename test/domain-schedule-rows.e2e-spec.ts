import { MikroSqlExecutor } from '@app/persistence';
import { SqlDatabase, startSqlDatabase } from '@test/support';

/**
 * `domain_schedule` has no foreign key to `domains` (its check cost a creation a scan of `domains`
 * on a young database: Migration20261205000000ScheduleWithoutForeignKey); a trigger does what the
 * key's cascade did.
 */
describe('domain schedule rows in PostgreSQL', () => {
  let sql: SqlDatabase;
  let db: MikroSqlExecutor;

  beforeAll(async () => {
    sql = await startSqlDatabase();
    db = sql.db;
  });
  afterAll(() => sql?.close());

  const addDomain = async (workspaceId: string, id: string) => {
    await db.query(
      `insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at)
       values (?, ?, ?, 1, 'pending', 'unknown', '{}', 1, now(), now())`,
      [id, workspaceId, `${id}.example.com`],
    );
    await db.query(`insert into domain_schedule (id, shard, probe_phase, next_probe_at) values (?, 1, 0.5, now())`, [
      id,
    ]);
  };
  const scheduled = async () =>
    (await db.query<{ id: string }>('select id from domain_schedule order by id')).map((r) => r.id);

  it('a domain removed from the table takes its schedule row with it, alone or with its workspace', async () => {
    await db.query(`insert into workspaces (id, name) values ('ws_a', 'A'), ('ws_b', 'B')`);
    await addDomain('ws_a', 'dom_a1');
    await addDomain('ws_a', 'dom_a2');
    await addDomain('ws_b', 'dom_b1');
    expect(await scheduled()).toEqual(['dom_a1', 'dom_a2', 'dom_b1']);

    await db.query(`delete from domains where id = 'dom_a1'`);
    expect(await scheduled()).toEqual(['dom_a2', 'dom_b1']);

    // The workspace's cascade removes its domains, and each takes its schedule row.
    await db.query(`delete from workspaces where id = 'ws_b'`);
    expect(await scheduled()).toEqual(['dom_a2']);
  });

  it('a soft delete (deleted_at) keeps the row: the group commit removes it with the snapshot', async () => {
    await db.query(`update domains set deleted_at = now() where id = 'dom_a2'`);
    expect(await scheduled()).toEqual(['dom_a2']);
  });
});

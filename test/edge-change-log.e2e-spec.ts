import { MikroSqlExecutor } from '@app/persistence';
import { SqlDatabase, startSqlDatabase } from '@test/support';
import { CHANGES_SQL, EdgeReplicaQueries, changesParams } from '../libs/edge/src/replica/edge-replica.queries';

/** The edge writers' read of the change log (`edge_change_log`) on a real PostgreSQL. */
describe('edge change log reads', () => {
  let sql: SqlDatabase;
  let db: MikroSqlExecutor;
  let queries: EdgeReplicaQueries;
  const LOGGED = 20_000;

  beforeAll(async () => {
    sql = await startSqlDatabase();
    db = sql.db;
    queries = new EdgeReplicaQueries(db);
    await db.query(
      `insert into edge_changes (seq, hostname) select g, 'h' || g || '.example.com' from generate_series(1, ?::int) g`,
      [LOGGED],
    );
    await db.query(`select setval('edge_changes_seq_seq', ?::bigint)`, [LOGGED]);
  });
  afterAll(() => sql?.close());

  const seqs = async (seq: number, holes: number[], limit: number) =>
    (await queries.changes(seq, holes, limit)).map((c) => c.seq);

  it('answers the holes asked for again, then the changes after the cursor, oldest first and at most the limit', async () => {
    expect(await seqs(LOGGED - 5, [], 100)).toEqual([19_996, 19_997, 19_998, 19_999, 20_000]);
    expect(await seqs(LOGGED - 5, [7, 3, 19_990], 5)).toEqual([3, 7, 19_990, 19_996, 19_997]);
    // A hole above the cursor is a change after it: answered once.
    expect(await seqs(LOGGED - 2, [LOGGED], 10)).toEqual([19_999, 20_000]);
    // A hole that never filled (a rolled-back transaction) is simply absent.
    expect(await seqs(LOGGED, [LOGGED + 7], 10)).toEqual([]);
  });

  it('reads only what it answers, however long the retained log is', async () => {
    // An idle poll: nothing after the cursor, no holes, and no statistics yet (a young log, as in
    // the benchmarks; none is gathered here). `seq > $1 or seq = any($2) order by seq limit` was planned
    // as a walk of the key index from its start with a filter: 223 blocks here, every one of them.
    const [{ 'QUERY PLAN': plan }] = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number } }] }>(
      `explain (analyze, buffers, format json) ${CHANGES_SQL}`,
      changesParams(LOGGED, [], 500),
    );
    expect(plan[0].Plan['Shared Hit Blocks']).toBeLessThan(10);
  });

  describe('a domain row numbers its own changes', () => {
    const edgeSeq = async (id: string) =>
      Number((await db.query<{ s: string }>('select edge_seq as s from domains where id = ?', [id]))[0].s);
    const logged = async (hostname: string) =>
      (await db.query<{ seq: string }>('select seq from edge_changes where hostname = ? order by seq', [hostname])).map(
        (r) => Number(r.seq),
      );

    beforeAll(async () => {
      await db.query(`insert into workspaces (id, name) values ('ws_log', 'log')`);
      await db.query(
        `insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at)
         values ('dom_log', 'ws_log', 'shop.example.com', 1, 'pending', 'unknown', '{"originUrl": "https://a.example"}', 1, now(), now())`,
      );
    });

    it('is in the log after the cursor when created, with no row appended', async () => {
      const seq = await edgeSeq('dom_log');
      expect(seq).toBeGreaterThan(LOGGED);
      expect(await queries.changes(LOGGED, [], 10)).toEqual([{ seq, hostname: 'shop.example.com' }]);
      expect(await logged('shop.example.com')).toEqual([]);
      expect((await queries.range()).last).toBe(seq);
    });

    it('takes a new number when a column the edge serves from changes, and keeps it otherwise', async () => {
      const created = await edgeSeq('dom_log');
      await db.query(
        `update domains set updated_at = now(), version = 2, state = state || '{"note": 1}' where id = 'dom_log'`,
      );
      expect(await edgeSeq('dom_log')).toBe(created);
      await db.query(`update domains set state = state || '{"originUrl": "https://b.example"}' where id = 'dom_log'`);
      const moved = await edgeSeq('dom_log');
      expect(moved).toBeGreaterThan(created);
      // The older number is gone (a hole the cursor gives up on); the newer one carries the change.
      expect(await queries.changes(LOGGED, [created], 10)).toEqual([{ seq: moved, hostname: 'shop.example.com' }]);
      await db.query(`update domains set monitor_status = 'correct' where id = 'dom_log'`);
      expect(await edgeSeq('dom_log')).toBeGreaterThan(moved);
    });

    it("logs the hostname it had before a rename, and a deleted domain's hostname", async () => {
      const before = await edgeSeq('dom_log');
      await db.query(`update domains set hostname = 'www.example.com' where id = 'dom_log'`);
      // Both numbers come from the rename's transaction: the row's first (a BEFORE trigger).
      const [old] = await logged('shop.example.com');
      const renamed = await edgeSeq('dom_log');
      expect(renamed).toBeGreaterThan(before);
      expect(old).toBeGreaterThan(renamed);
      await db.query(`delete from domains where id = 'dom_log'`);
      const [gone] = await logged('www.example.com');
      expect(gone).toBeGreaterThan(old);
      expect((await queries.changes(LOGGED, [], 10)).map((c) => c.hostname)).toEqual([
        'shop.example.com',
        'www.example.com',
      ]);
    });

    it('prunes the log rows and records how far: a checkpoint before that has lost changes', async () => {
      expect((await queries.range()).pruned).toBe(0);
      await db.query(`update edge_changes set at = now() - interval '2 days' where seq <= 100`);
      await queries.prune(24);
      expect((await queries.range()).pruned).toBe(100);
      expect(await seqs(0, [], 3)).toEqual([101, 102, 103]);
      // Nothing older: the record stays where it was.
      await queries.prune(24);
      expect((await queries.range()).pruned).toBe(100);
    });
  });
});

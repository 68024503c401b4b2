import { MikroSqlExecutor } from '@app/persistence';
import { SqlDatabase, startSqlDatabase } from '@test/support';
import { CHANGES_SQL, EdgeReplicaQueries } from '../libs/edge/src/replica/edge-replica.queries';

/** The edge writers' read of the change log (`edge_changes`) on a real PostgreSQL. */
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
      [LOGGED, 500, [], LOGGED, 500],
    );
    expect(plan[0].Plan['Shared Hit Blocks']).toBeLessThan(10);
  });
});

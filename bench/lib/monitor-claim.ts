import { performance } from 'node:perf_hooks';
import { claimDueDomains } from '@app/domains';
import type { SqlExecutor } from '@app/persistence';
import type { Pool } from 'pg';

/** The monitor's own claim statement (claimDueDomains) of `limit` rows over one pg connection, rolled back. */
export async function timeClaim(
  pg: Pool,
  shards: number[],
  intervalSeconds: number,
  limit: number,
): Promise<{ ms: number; rows: number }> {
  const client = await pg.connect();
  const query = async <T>(sql: string, params: unknown[] = []) => {
    let n = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as T[];
  };
  const db: SqlExecutor = { query, bound: query, transaction: (work) => work(db) };
  try {
    await client.query('begin');
    const started = performance.now();
    const { due } = await claimDueDomains(db, shards, intervalSeconds, limit);
    return { ms: performance.now() - started, rows: due.length };
  } finally {
    await client.query('rollback');
    client.release();
  }
}

import type { SqlExecutor } from '@app/persistence';

/**
 * Seconds the most overdue probe has waited, cluster-wide (0 when nothing is due): how far the
 * furthest-behind shard's watermark (`shard_leases.monitored_until`) is behind now. Watermarks are
 * written every few seconds (`WATERMARK_SAVE_MS`), so this may read that much high; a shard no node
 * serves shows here as its watermark ages.
 */
export async function monitorLagSeconds(db: SqlExecutor): Promise<number> {
  const [row] = await db.query<{ lag: number | null }>(
    `select extract(epoch from now() - min(monitored_until))::float8 as lag from shard_leases`,
  );
  return Math.max(0, Number(row?.lag ?? 0));
}

import type { SqlExecutor } from '@app/persistence';

/**
 * Seconds the most overdue domain has waited for its probe, cluster-wide (0 when nothing is due):
 * one read of the first row of the next_probe_at index.
 */
export async function monitorLagSeconds(db: SqlExecutor): Promise<number> {
  const [row] = await db.query<{ lag: number | null }>(
    `select extract(epoch from now() - min(next_probe_at))::float8 as lag
     from domain_schedule where next_probe_at <= now()`,
  );
  return Math.max(0, Number(row?.lag ?? 0));
}

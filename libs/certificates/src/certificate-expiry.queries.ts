import type { SqlExecutor } from '@app/persistence';

/** Cheap queries: ranges and an ordered limit on certificates_not_after_idx, joined to live domains. */
const EXPIRY_SQL = `select
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where c.not_after <= now()) as expired,
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where c.not_after > now() and c.not_after <= now() + interval '7 days') as within_7d,
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where c.not_after > now() + interval '7 days' and c.not_after <= now() + interval '30 days') as within_30d,
  (select extract(epoch from c.not_after - now()) from certificates c
     join domains d on d.id = c.domain_id and d.deleted_at is null order by c.not_after limit 1) as earliest`;

export interface ExpiryRow {
  expired: string;
  within_7d: string;
  within_30d: string;
  earliest: string | null;
}

/** Certificates of live domains by time to expiry, cluster-wide (the expiry gauges). */
export async function certificateExpiries(db: SqlExecutor): Promise<ExpiryRow> {
  return (await db.query<ExpiryRow>(EXPIRY_SQL))[0];
}

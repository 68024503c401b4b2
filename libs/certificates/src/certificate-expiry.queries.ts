import type { SqlExecutor } from '@app/persistence';

/** Monitor statuses where a renewal waits on the customer (DNS moved away, CAA forbids): outside the SLO. */
const CUSTOMER_SIDE = `'dns_not_resolving', 'dns_incorrect', 'ssl_failed'`;

/** Cheap queries: ranges and an ordered limit on certificates_not_after_idx, joined to live domains. */
const EXPIRY_SQL = `select
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where c.not_after <= now()) as expired,
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where c.not_after > now() and c.not_after <= now() + interval '7 days') as within_7d,
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where c.not_after > now() + interval '7 days' and c.not_after <= now() + interval '30 days') as within_30d,
  (select extract(epoch from c.not_after - now()) from certificates c
     join domains d on d.id = c.domain_id and d.deleted_at is null order by c.not_after limit 1) as earliest,
  -- The lifetime SLO's certificates: those we can renew (not where the customer's DNS or CAA now
  -- turns us away). Under a third left is a renewal that has not happened: renewal starts between a
  -- half and a third left. A scan: read once a minute.
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where d.monitor_status not in (${CUSTOMER_SIDE}) and c.not_after > now()
       and now() > c.not_after - (c.not_after - c.not_before) / 3) as under_third,
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where d.monitor_status not in (${CUSTOMER_SIDE})
       and now() <= c.not_after - (c.not_after - c.not_before) / 3) as over_third,
  (select count(*) from certificates c join domains d on d.id = c.domain_id and d.deleted_at is null
     where d.monitor_status not in (${CUSTOMER_SIDE}) and c.not_after <= now()) as expired_renewable`;
export interface ExpiryRow {
  expired: string;
  within_7d: string;
  within_30d: string;
  earliest: string | null;
  under_third: string;
  over_third: string;
  expired_renewable: string;
}

/** Certificates of live domains by time to expiry, cluster-wide (the expiry gauges). */
export async function certificateExpiries(db: SqlExecutor): Promise<ExpiryRow> {
  return (await db.query<ExpiryRow>(EXPIRY_SQL))[0];
}

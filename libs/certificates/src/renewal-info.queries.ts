import type { SqlExecutor } from '@app/persistence';

export interface AriDue {
  domainId: string;
  hostname: string;
  issuerName: string;
  certId: string;
  notBefore: Date;
  notAfter: Date;
  renewAt: Date | null;
}

/**
 * Certificates of the given shards whose renewal information is due, claimed by moving their next
 * check ahead in the same statement (`skip locked`): two nodes never ask the CA twice for one.
 */
export async function claimAriDue(db: SqlExecutor, shards: readonly number[], limit: number): Promise<AriDue[]> {
  if (!shards.length) return [];
  const rows = await db.bound<
    Omit<AriDue, 'notBefore' | 'notAfter' | 'renewAt'> &
      Record<'notBefore' | 'notAfter' | 'renewAt', string | Date | null>
  >(
    `with due as (
       select c.domain_id from certificates c join domains d on d.id = c.domain_id
       where c.ari_check_at <= now() and d.shard = any(?::int[])
       order by c.ari_check_at limit ?::int for update of c skip locked
     )
     update certificates c set ari_check_at = now() + interval '10 minutes' from due
     where c.domain_id = due.domain_id and c.issuer_name is not null and c.cert_id is not null
     returning c.domain_id as "domainId", c.hostname, c.issuer_name as "issuerName", c.cert_id as "certId",
       c.not_before as "notBefore", c.not_after as "notAfter", c.renew_at as "renewAt"`,
    [shards, limit],
  );
  // Timestamps come back as text or Date depending on the driver path: one shape for the caller.
  const date = (value: string | Date | null) => (value === null ? null : new Date(value));
  return rows.map((row) => ({
    ...row,
    notBefore: date(row.notBefore) as Date,
    notAfter: date(row.notAfter) as Date,
    renewAt: date(row.renewAt),
  }));
}

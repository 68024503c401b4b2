import { Snapshot, SnapshotRow, SnapshotStore, SnapshotWrite, snapshotsById } from '@app/actors';
import type { SqlExecutor } from '@app/persistence';
import { PurchaseRecord } from '../model/purchase.record';
import { currentExpiry } from '../model/purchase.view';

const columns = (r: PurchaseRecord) => ({
  status: r.saga.status,
  step: r.saga.step,
  expiresAt: currentExpiry(r) ?? null,
});

/**
 * Purchase snapshots in `purchases`: the record as JSON plus the query columns. The first write of
 * a purchase is its insert, and the partial unique index on live hostnames makes a second live
 * purchase of the same hostname lose it (`on conflict do nothing`: reported as a conflict) before
 * anything is charged.
 */
export class PurchaseStore implements SnapshotStore<PurchaseRecord> {
  async loadMany(db: SqlExecutor, ids: readonly string[]): Promise<Map<string, Snapshot<PurchaseRecord>>> {
    const rows = await db.query<SnapshotRow<PurchaseRecord>>(
      'select id, state, version from purchases where id = any(?::text[])',
      [ids],
    );
    return snapshotsById(rows);
  }

  async write(tx: SqlExecutor, items: SnapshotWrite<PurchaseRecord>[]): Promise<Set<string>> {
    const written = new Set<string>();
    for (const item of items) {
      const r = item.state;
      const c = columns(r);
      const rows =
        item.expectedVersion === 0
          ? await tx.query<{ id: string }>(
              `insert into purchases (id, workspace_id, hostname, status, step, customer_reference, shard, state, version,
                 auto_renew, expires_at, retry_at, created_at, updated_at)
               values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, 1, ?, ?, ?, ?, ?) on conflict do nothing returning id`,
              [
                r.id,
                r.workspaceId,
                r.hostname,
                c.status,
                c.step,
                r.customerReference ?? null,
                item.shard,
                JSON.stringify(r),
                r.autoRenew,
                c.expiresAt,
                r.retryAt ?? null,
                r.createdAt,
                r.updatedAt,
              ],
            )
          : await tx.query<{ id: string }>(
              `update purchases set state = ?::jsonb, status = ?, step = ?, auto_renew = ?, expires_at = ?, retry_at = ?,
                 updated_at = ?, version = version + 1
               where id = ? and version = ? returning id`,
              [
                JSON.stringify(r),
                c.status,
                c.step,
                r.autoRenew,
                c.expiresAt,
                r.retryAt ?? null,
                r.updatedAt,
                item.id,
                item.expectedVersion,
              ],
            );
      if (rows.length) written.add(item.id);
    }
    return written;
  }
}

import {
  Snapshot,
  SnapshotRow,
  SnapshotStatement,
  SnapshotStore,
  SnapshotWrite,
  StatementParam,
  snapshotsById,
} from '@app/actors';
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

  statement(items: SnapshotWrite<PurchaseRecord>[], prefix: string, param: StatementParam): SnapshotStatement {
    const inserts = items.filter((i) => i.expectedVersion === 0).map((i) => ({ ...i, c: columns(i.state) }));
    const updates = items.filter((i) => i.expectedVersion > 0).map((i) => ({ ...i, c: columns(i.state) }));
    const p = prefix;
    return {
      ctes: [
        `${p}inserted as (
           insert into purchases (id, workspace_id, hostname, status, step, customer_reference, shard, state, version,
             auto_renew, expires_at, retry_at, created_at, updated_at)
           select u.id, u.workspace_id, u.hostname, u.status, u.step, u.customer_reference, u.shard, u.state, 1,
             u.auto_renew, u.expires_at, u.retry_at, u.created_at, u.updated_at
           from unnest(${param(inserts.map((i) => i.id))}::text[], ${param(inserts.map((i) => i.shard))}::int[],
             ${param(inserts.map((i) => i.epoch))}::bigint[], ${param(inserts.map((i) => i.state.workspaceId))}::text[],
             ${param(inserts.map((i) => i.state.hostname))}::text[], ${param(inserts.map((i) => i.c.status))}::text[],
             ${param(inserts.map((i) => i.c.step))}::text[], ${param(inserts.map((i) => i.state.customerReference ?? null))}::text[],
             ${param(inserts.map((i) => JSON.stringify(i.state)))}::jsonb[], ${param(inserts.map((i) => i.state.autoRenew))}::bool[],
             ${param(inserts.map((i) => i.c.expiresAt))}::timestamptz[], ${param(inserts.map((i) => i.state.retryAt ?? null))}::timestamptz[],
             ${param(inserts.map((i) => i.state.createdAt))}::timestamptz[], ${param(inserts.map((i) => i.state.updatedAt))}::timestamptz[])
             as u(id, shard, epoch, workspace_id, hostname, status, step, customer_reference, state, auto_renew, expires_at,
               retry_at, created_at, updated_at)
           join fence f on f.shard = u.shard and f.epoch = u.epoch
           on conflict do nothing returning id)`,
        `${p}updated as (
           update purchases s set state = u.state, status = u.status, step = u.step, auto_renew = u.auto_renew,
             expires_at = u.expires_at, retry_at = u.retry_at, updated_at = u.updated_at, version = s.version + 1
           from unnest(${param(updates.map((i) => i.id))}::text[], ${param(updates.map((i) => i.shard))}::int[],
             ${param(updates.map((i) => i.epoch))}::bigint[], ${param(updates.map((i) => i.expectedVersion))}::bigint[],
             ${param(updates.map((i) => JSON.stringify(i.state)))}::jsonb[], ${param(updates.map((i) => i.c.status))}::text[],
             ${param(updates.map((i) => i.c.step))}::text[], ${param(updates.map((i) => i.state.autoRenew))}::bool[],
             ${param(updates.map((i) => i.c.expiresAt))}::timestamptz[], ${param(updates.map((i) => i.state.retryAt ?? null))}::timestamptz[],
             ${param(updates.map((i) => i.state.updatedAt))}::timestamptz[])
             as u(id, shard, epoch, expected, state, status, step, auto_renew, expires_at, retry_at, updated_at)
           join fence f on f.shard = u.shard and f.epoch = u.epoch
           where s.id = u.id and s.version = u.expected returning s.id)`,
        `${p}written as (select id from ${p}inserted union all select id from ${p}updated)`,
      ],
    };
  }
}

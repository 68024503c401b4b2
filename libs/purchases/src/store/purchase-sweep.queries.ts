import type { SqlExecutor } from '@app/persistence';

/** A purchase the sweeper hands to its actor, on a shard this node owns. */
export interface DuePurchase {
  id: string;
  shard: number;
}

// Both run every sweep with the node's shards (up to 4096): `bound` sends them beside the statement.

/** Sagas (and connect calls, and renewals) untouched for `stuckSeconds`: their node died or a provider was down. */
export function stuckPurchases(
  db: SqlExecutor,
  shards: readonly number[],
  stuckSeconds: number,
  limit: number,
): Promise<DuePurchase[]> {
  return db.bound<DuePurchase>(
    `select id, shard from purchases
     where shard = any(?::int[]) and updated_at < now() - ?::int * interval '1 second'
       and (status = 'pending' or (status = 'completed' and step <> 'completed')
         or (status = 'completed' and state->'renewals'->-1->>'step' in ('charging', 'renewing', 'refunding')))
     order by updated_at limit ?::int`,
    [shards, stuckSeconds, limit],
  );
}

/** Completed purchases with autoRenew whose expiry is within `renewDays` and that are not waiting for a retry. */
export function renewalsDue(
  db: SqlExecutor,
  shards: readonly number[],
  renewDays: number,
  limit: number,
): Promise<DuePurchase[]> {
  return db.bound<DuePurchase>(
    `select id, shard from purchases
     where status = 'completed' and auto_renew and shard = any(?::int[])
       and expires_at <= now() + ?::int * interval '1 day' and (retry_at is null or retry_at <= now())
     order by expires_at limit ?::int`,
    [shards, renewDays, limit],
  );
}

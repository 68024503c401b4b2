import type { SqlExecutor } from '@app/persistence';

/** A live domain of a shard, as the monitor's schedule loads it (with its ProbeView's fields). */
export interface ShardDomain {
  id: string;
  shard: number;
  phase: number;
  verified: boolean;
  /** Epoch milliseconds. */
  createdAt: number;
  hostname: string;
  workspaceId: string;
  originUrl: string;
  machineJson: string;
  servedCheckPending: boolean;
}

/**
 * The live domains of the given shards that the monitor probes (one taken over by another
 * workspace is final, never probed), through `domains_shard_idx`.
 */
export async function shardDomains(db: SqlExecutor, shards: readonly number[]): Promise<ShardDomain[]> {
  if (!shards.length) return [];
  return db.bound<ShardDomain>(
    `select id, shard, (state->>'probePhase')::float8 as phase, status = 'verified' as verified,
       extract(epoch from created_at)::float8 * 1000 as "createdAt", hostname, workspace_id as "workspaceId",
       state->>'originUrl' as "originUrl", (state->'machine')::text as "machineJson",
       coalesce((state->>'servedCheckPending')::boolean, false) as "servedCheckPending"
     from domains where shard = any(?::int[]) and deleted_at is null and released_at is null`,
    [shards],
  );
}

/** The watermarks of the given shards that have one (`ProbeSchedule`), epoch milliseconds. */
export async function shardWatermarks(db: SqlExecutor, shards: readonly number[]): Promise<Map<number, number>> {
  if (!shards.length) return new Map();
  const rows = await db.bound<{ shard: number; at: number }>(
    `select shard, extract(epoch from monitored_until)::float8 * 1000 as at
     from shard_leases where shard = any(?::int[]) and monitored_until is not null`,
    [shards],
  );
  return new Map(rows.map((r) => [Number(r.shard), Number(r.at)]));
}

/** Writes watermarks (epoch milliseconds, or null: nothing to probe) of shards `owner` holds. */
export async function saveWatermarks(
  db: SqlExecutor,
  owner: string,
  shards: readonly number[],
  at: readonly (number | null)[],
): Promise<void> {
  if (!shards.length) return;
  await db.bound(
    `update shard_leases l set monitored_until = to_timestamp(u.at / 1000)
     from unnest(?::int[], ?::float8[]) as u(shard, at) where l.shard = u.shard and l.owner = ?::text`,
    [shards, at, owner],
  );
}

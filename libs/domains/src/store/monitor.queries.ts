import type { DomainState } from '@app/domain-model';
import type { SqlExecutor } from '@app/persistence';

export interface DueDomain {
  id: string;
  hostname: string;
  shard: number;
  originUrl: string;
  probePhase: number;
  /** The stored state machine, to tell a probe that changes nothing without waking the actor. */
  machine: DomainState;
  /**
   * Due for more than an interval and a half minute (its node was down): rescheduled to its phase
   * slot instead of probed now, so a long outage ends without a stampede of probes.
   */
  stale: boolean;
}

/**
 * Claims the due domains of the given shards and moves each to its next phase slot in one
 * statement (`for update skip locked`), so no domain is probed twice in one interval even while
 * shards move. The next slot is the first `phase * interval` offset at least half an interval away.
 */
export async function claimDueDomains(
  db: SqlExecutor,
  shards: number[],
  intervalSeconds: number,
  limit: number,
): Promise<DueDomain[]> {
  if (!shards.length) return [];
  return db.transaction(async (tx) => {
    // Walk the next_probe_at index in order and stop at `limit` rows. Left to itself the planner, which
    // underestimates the rows due (the column moves ahead of its statistics), collects every due row of
    // the node's shards and sorts them: fine when nothing is behind, but each claim then costs the whole
    // backlog, and a monitor that falls behind falls further behind (40x slower at 38,000 rows due).
    // Both settings in one round trip (`set local` each would be two): the claim runs every second.
    await tx.query(`select set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`);
    return tx.query<DueDomain>(
      `with due as (
       select id, next_probe_at < now() - (? + 30) * interval '1 second' as stale
       from domains
       where shard = any(?::int[]) and deleted_at is null and next_probe_at <= now()
       order by next_probe_at
       limit ?
       for update skip locked
     )
     update domains d
     set next_probe_at = to_timestamp(
       ceil((extract(epoch from now()) + ?::float8 / 2 - d.probe_phase * ?) / ?) * ? + d.probe_phase * ?)
     from due
     where d.id = due.id
     returning d.id, d.hostname, d.shard, d.state->>'originUrl' as "originUrl",
       d.probe_phase as "probePhase", d.state->'machine' as machine, due.stale`,
      [
        intervalSeconds,
        // One array literal: the driver would escape each of up to 4096 elements on every claim.
        `{${shards.join(',')}}`,
        limit,
        intervalSeconds,
        intervalSeconds,
        intervalSeconds,
        intervalSeconds,
        intervalSeconds,
      ],
    );
  });
}

/** Claimed domains that will not be probed here after all (shutdown): due again at once. */
export async function releaseDomains(db: SqlExecutor, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.query('update domains set next_probe_at = now() where id = any(?::text[]) and deleted_at is null', [ids]);
}

import type { DomainState } from '../model/domain.types';
import type { SqlExecutor } from '@app/persistence';
import { pendingProbeWaits } from './pending-backoff';

export interface DueDomain {
  id: string;
  hostname: string;
  /** Whose `_acme-challenge` delegation the probe checks (the label is per workspace). */
  workspaceId: string;
  shard: number;
  originUrl: string;
  probePhase: number;
  /** The stored state machine, to tell a probe that changes nothing without waking the actor. */
  machine: DomainState;
  /** A new certificate no probe has read from the edge yet (DomainRecord.servedCheckPending). */
  servedCheckPending: true | null;
  /**
   * Due for more than an interval and a half minute (its node was down): rescheduled to its phase
   * slot instead of probed now, so a long outage ends without a stampede of probes.
   */
  stale: boolean;
}

export interface Claim {
  due: DueDomain[];
  /**
   * When fewer than asked for were due: milliseconds until the next of these shards' domains comes
   * due (0 if one is due but was locked by another claim; undefined if they have none).
   */
  nextDueInMs?: number;
}

/**
 * Claims the due domains of the given shards and moves each to its next phase slot in one
 * statement (`for update skip locked`), so no domain is probed twice in one interval even while
 * shards move. The next slot is the first `phase * interval` offset at least half an interval away.
 * A domain on the pending back-off (`backoff_step` set at creation and by a check, see
 * `pendingProbeWaits`) comes due again after its next wait instead, or at its slot if that is sooner;
 * past the last wait, or once the domain is `verified`, it leaves the back-off for its slot. Only
 * those rows look at `domains` (a primary-key lookup): the claim of the phase schedule is unchanged.
 * A claim that found less than `limit` also reads when the next domain comes due, so an idle monitor
 * sleeps until then instead of looking every second.
 */
export async function claimDueDomains(
  db: SqlExecutor,
  shards: readonly number[],
  intervalSeconds: number,
  limit: number,
): Promise<Claim> {
  if (!shards.length) return { due: [] };
  return db.transaction(async (tx) => {
    // Walk the next_probe_at index in order and stop at `limit` rows. Left to itself the planner, which
    // underestimates the rows due (the column moves ahead of its statistics), collects every due row of
    // the node's shards and sorts them: fine when nothing is behind, but each claim then costs the whole
    // backlog, and a monitor that falls behind falls further behind (40x slower at 38,000 rows due).
    // Both settings in one round trip (`set local` each would be two): claims run often under load.
    await tx.query(`select set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`);
    // The claim moves rows of the narrow `domain_schedule` table; what a probe needs (hostname,
    // origin, state machine) is read from `domains` without writing it.
    const waits = pendingProbeWaits(intervalSeconds);
    const due = await tx.bound<DueDomain>(
      `with due as (
       select id, next_probe_at < now() - (?::int + 30) * interval '1 second' as stale,
         -- The back-off's next wait (seconds): none off the back-off (step null), past its last wait, or
         -- once verified. A case, so only rows on the back-off look the domain up.
         -- (A scalar subquery, looked up per row: an EXISTS may be run as a hash of every verified domain.)
         case when (?::float8[])[backoff_step + 1] is null then null
           when (select d.status from domains d where d.id = domain_schedule.id) = 'verified' then null
           else (?::float8[])[backoff_step + 1] end as wait
       from domain_schedule
       where shard = any(?::int[]) and next_probe_at <= now()
       order by next_probe_at
       limit ?::int
       for update skip locked
     ), moved as (
       update domain_schedule s
       -- least() skips a null: without a wait, the phase slot.
       set next_probe_at = least(now() + due.wait * interval '1 second', to_timestamp(
         ceil((extract(epoch from now()) + ?::float8 / 2 - s.probe_phase * ?::float8) / ?::float8) * ?::float8
           + s.probe_phase * ?::float8)),
         backoff_step = case when due.wait is not null then s.backoff_step + 1 end
       from due
       where s.id = due.id
       returning s.id, s.shard, s.probe_phase, due.stale
     )
     select m.id, d.hostname, d.workspace_id as "workspaceId", m.shard, d.state->>'originUrl' as "originUrl",
       m.probe_phase as "probePhase", d.state->'machine' as machine, d.state->'servedCheckPending' as "servedCheckPending",
       m.stale
     -- One key lookup per moved row (\`offset 0\` keeps the subquery from being flattened into a join):
     -- planned from stale statistics (a young table filling fast) the join hashed all of \`domains\`,
     -- 20 of a claim's 35 ms for 361 rows in \`domains.create\` (auto_explain).
     from moved m cross join lateral (
       select hostname, workspace_id, state from domains d where d.id = m.id and d.deleted_at is null offset 0
     ) d`,
      [
        intervalSeconds,
        waits,
        waits,
        // Up to 4096 numbers: bound beside the statement (`bound`), not spliced in and escaped.
        shards,
        limit,
        intervalSeconds,
        intervalSeconds,
        intervalSeconds,
        intervalSeconds,
        intervalSeconds,
      ],
    );
    if (due.length >= limit) return { due };
    // The first row of the next_probe_at index in these shards (the settings above keep it a walk).
    const [next] = await tx.bound<{ ms: number | null }>(
      `select greatest(0, extract(epoch from (next_probe_at - now())) * 1000)::float8 as ms
       from domain_schedule where shard = any(?::int[])
       order by next_probe_at limit 1`,
      [shards],
    );
    return { due, nextDueInMs: next?.ms ?? undefined };
  });
}

/**
 * A check of a domain not serving HTTPS yet: its back-off starts again at the first wait (`inSeconds`)
 * from now, whatever step or slot it was at.
 */
export async function restartPendingBackoff(db: SqlExecutor, id: string, inSeconds: number): Promise<void> {
  await db.query(
    `update domain_schedule set backoff_step = 1, next_probe_at = now() + ? * interval '1 second' where id = ?`,
    [inSeconds, id],
  );
}

/** Claimed domains that will not be probed here after all (shutdown): due again at once. */
export async function releaseDomains(db: SqlExecutor, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.query('update domain_schedule set next_probe_at = now() where id = any(?::text[])', [ids]);
}

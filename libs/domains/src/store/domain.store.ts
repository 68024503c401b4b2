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
import { DomainRecord } from '../model/domain.record';
import type { ScheduleInput } from '../model/probe-schedule';
import { ProbeView, probeViewOf } from '../model/probe-view';

/**
 * What a group commit changed for the monitor's schedule on this node: domains created (on the
 * pending back-off from their creation), domains written (what their probes need), and domains
 * deleted or taken over by another workspace (never probed again).
 */
export interface ScheduleChange {
  created: ScheduleInput<ProbeView>[];
  written: { id: string; view: ProbeView }[];
  removed: string[];
}
export type ScheduleListener = (change: ScheduleChange) => void;

/**
 * Domain snapshots in `domains`: the record as JSON plus the columns reads use (workspace, hostname
 * unique among live domains not released to another workspace, status, shard, a deleted domain's
 * takeover guard). `on conflict do nothing` also catches a hostname taken meanwhile: the write
 * reports a conflict. The monitor's schedule is in memory (`ProbeSchedule`): `scheduleChanged` tells
 * it of domains created (on the pending back-off from their creation) and deleted here.
 */
export class DomainStore implements SnapshotStore<DomainRecord> {
  constructor(private readonly scheduleChanged?: ScheduleListener) {}

  async loadMany(db: SqlExecutor, ids: readonly string[]): Promise<Map<string, Snapshot<DomainRecord>>> {
    const rows = await db.query<SnapshotRow<DomainRecord>>(
      'select id, state, version from domains where id = any(?::text[])',
      [ids],
    );
    return snapshotsById(rows);
  }

  statement(items: SnapshotWrite<DomainRecord>[], prefix: string, param: StatementParam): SnapshotStatement {
    const inserts = items.filter((i) => i.expectedVersion === 0);
    const updates = items.filter((i) => i.expectedVersion > 0);
    const p = prefix;
    return {
      ctes: [
        `${p}new as (
           select u.* from unnest(${param(inserts.map((i) => i.id))}::text[], ${param(inserts.map((i) => i.shard))}::int[],
             ${param(inserts.map((i) => i.epoch))}::bigint[], ${param(inserts.map((i) => i.state.workspaceId))}::text[],
             ${param(inserts.map((i) => i.state.hostname))}::text[], ${param(inserts.map((i) => i.state.machine.status))}::text[],
             ${param(inserts.map((i) => i.state.machine.monitorStatus))}::text[], ${param(inserts.map((i) => JSON.stringify(i.state)))}::jsonb[],
             ${param(inserts.map((i) => i.state.createdAt))}::timestamptz[], ${param(inserts.map((i) => i.state.projectId ?? null))}::text[])
             as u(id, shard, epoch, workspace_id, hostname, status, monitor_status, state, created_at, project_id)
           join fence f on f.shard = u.shard and f.epoch = u.epoch)`,
        `${p}inserted as (
           insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at, project_id)
           select id, workspace_id, hostname, shard, status, monitor_status, state, 1, created_at, created_at, project_id from ${p}new
           on conflict do nothing returning id)`,
        `${p}changed as (
           select u.* from unnest(${param(updates.map((i) => i.id))}::text[], ${param(updates.map((i) => i.shard))}::int[],
             ${param(updates.map((i) => i.epoch))}::bigint[], ${param(updates.map((i) => i.expectedVersion))}::bigint[],
             ${param(updates.map((i) => JSON.stringify(i.state)))}::jsonb[], ${param(updates.map((i) => i.state.machine.status))}::text[],
             ${param(updates.map((i) => i.state.machine.monitorStatus))}::text[], ${param(updates.map((i) => i.state.machine.deleted))}::bool[],
             ${param(updates.map((i) => i.state.updatedAt))}::timestamptz[], ${param(updates.map((i) => i.state.projectId ?? null))}::text[],
             ${param(updates.map((i) => i.state.releasedAt ?? null))}::timestamptz[], ${param(updates.map((i) => guardedUntil(i.state)))}::timestamptz[])
             as u(id, shard, epoch, expected, state, status, monitor_status, deleted, updated_at, project_id, released_at, guarded_until)
           join fence f on f.shard = u.shard and f.epoch = u.epoch)`,
        `${p}updated as (
           update domains d set state = u.state, status = u.status, monitor_status = u.monitor_status,
             version = d.version + 1, updated_at = u.updated_at, project_id = u.project_id,
             deleted_at = case when u.deleted then coalesce(d.deleted_at, now()) else null end,
             released_at = u.released_at, guarded_until = u.guarded_until
           from ${p}changed u where d.id = u.id and d.version = u.expected
           returning d.id, u.deleted, u.released_at is not null as released)`,
        // A deleted (or released) domain's certificate goes with it.
        `${p}certificates_gone as (
           delete from certificates where domain_id in (select id from ${p}updated where deleted or released))`,
        `${p}written as (select id from ${p}inserted union all select id from ${p}updated)`,
      ],
      written: (ids) => {
        const listener = this.scheduleChanged;
        if (!listener) return;
        const created = inserts
          .filter((i) => ids.has(i.id))
          .map((i) => ({
            id: i.id,
            shard: i.shard,
            phase: i.state.probePhase,
            backoffFrom: Date.parse(i.state.createdAt),
            view: probeViewOf(i.state),
          }));
        const change: ScheduleChange = { created, written: [], removed: [] };
        for (const i of updates) {
          if (!ids.has(i.id)) continue;
          if (i.state.machine.deleted || i.state.releasedAt) change.removed.push(i.id);
          else change.written.push({ id: i.id, view: probeViewOf(i.state) });
        }
        listener(change);
      },
    };
  }
}

/** The takeover guard's end, a column so a create finds it by hostname; none once released. */
function guardedUntil(record: DomainRecord): string | null {
  const guard = record.takeoverGuard;
  return guard && !guard.releasedAt ? guard.until : null;
}

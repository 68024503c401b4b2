import { Snapshot, SnapshotRow, SnapshotStore, SnapshotWrite, snapshotsById } from '@app/actors';
import type { SqlExecutor } from '@app/persistence';
import { DomainRecord } from '../model/domain.record';
import { FIRST_PROBE_SECONDS } from './pending-backoff';

/**
 * Domain snapshots in `domains`: the record as JSON plus the columns reads use (workspace, hostname
 * unique among live domains not released to another workspace, status, shard, a deleted domain's
 * takeover guard); the monitor's
 * schedule of each live domain in `domain_schedule` (written on insert, removed on delete).
 * `on conflict do nothing` also catches a hostname taken meanwhile: the write reports a conflict.
 */
export class DomainStore implements SnapshotStore<DomainRecord> {
  /**
   * The first probe comes soon after connecting: the customer may have set DNS up already. A new
   * domain starts on the pending back-off (`backoff_step` 1: `pendingProbeWaits`), its next probes
   * 20 s, 40 s, ... apart until it is verified or the waits reach the interval.
   * `firstProbeScheduled` hears of new domains (the monitor, which otherwise sleeps until its
   * earliest known due time).
   */
  constructor(
    private readonly firstProbeAfterSeconds = FIRST_PROBE_SECONDS,
    private readonly firstProbeScheduled?: (inSeconds: number) => void,
  ) {}

  async loadMany(db: SqlExecutor, ids: readonly string[]): Promise<Map<string, Snapshot<DomainRecord>>> {
    const rows = await db.query<SnapshotRow<DomainRecord>>(
      'select id, state, version from domains where id = any(?::text[])',
      [ids],
    );
    return snapshotsById(rows);
  }

  async write(tx: SqlExecutor, items: SnapshotWrite<DomainRecord>[]): Promise<Set<string>> {
    const written = new Set<string>();
    const inserts = items.filter((i) => i.expectedVersion === 0);
    const updates = items.filter((i) => i.expectedVersion > 0);
    if (inserts.length) {
      // The domain and its monitor schedule in one statement; a hostname conflict inserts neither.
      const rows = await tx.query<{ id: string }>(
        `with u as (
           select * from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::jsonb[], ?::float8[], ?::timestamptz[], ?::text[])
             as u(id, workspace_id, hostname, shard, status, monitor_status, state, phase, created_at, project_id)
         ), inserted as (
           insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at, project_id)
           select u.id, u.workspace_id, u.hostname, u.shard, u.status, u.monitor_status, u.state, 1, u.created_at, u.created_at, u.project_id
           from u
           on conflict do nothing returning id
         ), scheduled as (
           insert into domain_schedule (id, shard, probe_phase, next_probe_at, backoff_step)
           select u.id, u.shard, u.phase, now() + ? * interval '1 second', 1 from u join inserted using (id)
         )
         select id from inserted`,
        [
          inserts.map((i) => i.id),
          inserts.map((i) => i.state.workspaceId),
          inserts.map((i) => i.state.hostname),
          inserts.map((i) => i.shard),
          inserts.map((i) => i.state.machine.status),
          inserts.map((i) => i.state.machine.monitorStatus),
          inserts.map((i) => JSON.stringify(i.state)),
          inserts.map((i) => i.state.probePhase),
          inserts.map((i) => i.state.createdAt),
          inserts.map((i) => i.state.projectId ?? null),
          this.firstProbeAfterSeconds,
        ],
      );
      rows.forEach((r) => written.add(r.id));
      if (rows.length) this.firstProbeScheduled?.(this.firstProbeAfterSeconds);
    }
    if (updates.length) {
      const rows = await tx.query<{ id: string }>(
        `update domains d set state = u.state, status = u.status, monitor_status = u.monitor_status,
           version = d.version + 1, updated_at = u.updated_at, project_id = u.project_id,
           deleted_at = case when u.deleted then coalesce(d.deleted_at, now()) else null end,
           released_at = u.released_at, guarded_until = u.guarded_until
         from unnest(?::text[], ?::bigint[], ?::jsonb[], ?::text[], ?::text[], ?::bool[], ?::timestamptz[], ?::text[], ?::timestamptz[], ?::timestamptz[])
           as u(id, expected, state, status, monitor_status, deleted, updated_at, project_id, released_at, guarded_until)
         where d.id = u.id and d.version = u.expected returning d.id`,
        [
          updates.map((i) => i.id),
          updates.map((i) => i.expectedVersion),
          updates.map((i) => JSON.stringify(i.state)),
          updates.map((i) => i.state.machine.status),
          updates.map((i) => i.state.machine.monitorStatus),
          updates.map((i) => i.state.machine.deleted),
          updates.map((i) => i.state.updatedAt),
          updates.map((i) => i.state.projectId ?? null),
          updates.map((i) => i.state.releasedAt ?? null),
          updates.map((i) => guardedUntil(i.state)),
        ],
      );
      rows.forEach((r) => written.add(r.id));
      // A deleted (or released) domain's certificate goes with it, in the same transaction.
      const deleted = updates
        .filter((i) => (i.state.machine.deleted || i.state.releasedAt) && written.has(i.id))
        .map((i) => i.id);
      // A deleted domain leaves the monitor's schedule (a released one is still probed).
      const unscheduled = updates.filter((i) => i.state.machine.deleted && written.has(i.id)).map((i) => i.id);
      if (deleted.length)
        await tx.query(
          `with certificates_gone as (delete from certificates where domain_id = any(?::text[]))
           delete from domain_schedule where id = any(?::text[])`,
          [deleted, unscheduled],
        );
    }
    return written;
  }
}

/** The takeover guard's end, a column so a create finds it by hostname; none once released. */
function guardedUntil(record: DomainRecord): string | null {
  const guard = record.takeoverGuard;
  return guard && !guard.releasedAt ? guard.until : null;
}

import type { SqlExecutor } from '@app/persistence';
import { Snapshot, SnapshotStatement, SnapshotStore, SnapshotWrite, StatementParam } from './actor.types';
import { SnapshotRow, snapshotsById } from './snapshot-rows';

/** Snapshots as JSON in `actor_snapshots`, for kinds that need no query columns of their own. */
export class JsonSnapshotStore<S> implements SnapshotStore<S> {
  constructor(private readonly kind: string) {}

  async loadMany(db: SqlExecutor, ids: readonly string[]): Promise<Map<string, Snapshot<S>>> {
    const rows = await db.query<SnapshotRow<S>>(
      'select id, state, version from actor_snapshots where kind = ? and id = any(?::text[])',
      [this.kind, ids],
    );
    return snapshotsById(rows);
  }

  statement(items: SnapshotWrite<S>[], prefix: string, param: StatementParam): SnapshotStatement {
    const inserts = items.filter((i) => i.expectedVersion === 0);
    const updates = items.filter((i) => i.expectedVersion > 0);
    const p = prefix;
    const kind = param(this.kind);
    return {
      ctes: [
        `${p}inserted as (
           insert into actor_snapshots (kind, id, shard, version, state)
           select ${kind}::text, u.id, u.shard, 1, u.state
           from unnest(${param(inserts.map((i) => i.id))}::text[], ${param(inserts.map((i) => i.shard))}::int[],
             ${param(inserts.map((i) => i.epoch))}::bigint[], ${param(inserts.map((i) => JSON.stringify(i.state)))}::jsonb[])
             as u(id, shard, epoch, state)
           join fence f on f.shard = u.shard and f.epoch = u.epoch
           on conflict do nothing returning id)`,
        `${p}updated as (
           update actor_snapshots s set state = u.state, version = s.version + 1, updated_at = now()
           from unnest(${param(updates.map((i) => i.id))}::text[], ${param(updates.map((i) => i.shard))}::int[],
             ${param(updates.map((i) => i.epoch))}::bigint[], ${param(updates.map((i) => i.expectedVersion))}::bigint[],
             ${param(updates.map((i) => JSON.stringify(i.state)))}::jsonb[]) as u(id, shard, epoch, expected, state)
           join fence f on f.shard = u.shard and f.epoch = u.epoch
           where s.kind = ${kind}::text and s.id = u.id and s.version = u.expected returning s.id)`,
        `${p}written as (select id from ${p}inserted union all select id from ${p}updated)`,
      ],
    };
  }
}

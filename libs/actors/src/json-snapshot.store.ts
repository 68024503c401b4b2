import type { SqlExecutor } from '@app/persistence';
import { Snapshot, SnapshotStore, SnapshotWrite } from './actor.types';
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

  async write(tx: SqlExecutor, items: SnapshotWrite<S>[]): Promise<Set<string>> {
    const written = new Set<string>();
    const inserts = items.filter((i) => i.expectedVersion === 0);
    const updates = items.filter((i) => i.expectedVersion > 0);
    if (inserts.length) {
      const rows = await tx.query<{ id: string }>(
        `insert into actor_snapshots (kind, id, shard, version, state)
         select ?, u.id, u.shard, 1, u.state from unnest(?::text[], ?::int[], ?::jsonb[]) as u(id, shard, state)
         on conflict do nothing returning id`,
        [this.kind, inserts.map((i) => i.id), inserts.map((i) => i.shard), inserts.map((i) => JSON.stringify(i.state))],
      );
      rows.forEach((r) => written.add(r.id));
    }
    if (updates.length) {
      const rows = await tx.query<{ id: string }>(
        `update actor_snapshots s set state = u.state, version = s.version + 1, updated_at = now()
         from unnest(?::text[], ?::bigint[], ?::jsonb[]) as u(id, expected, state)
         where s.kind = ? and s.id = u.id and s.version = u.expected returning s.id`,
        [
          updates.map((i) => i.id),
          updates.map((i) => i.expectedVersion),
          updates.map((i) => JSON.stringify(i.state)),
          this.kind,
        ],
      );
      rows.forEach((r) => written.add(r.id));
    }
    return written;
  }
}

import { Snapshot } from './actor.types';

/** A snapshot row as the stores select it: `version` is a bigint, which the driver returns as text. */
export interface SnapshotRow<S> {
  id: string;
  state: S;
  version: string;
}

export function snapshotsById<S>(rows: SnapshotRow<S>[]): Map<string, Snapshot<S>> {
  return new Map(rows.map((row) => [row.id, { state: row.state, version: Number(row.version) }]));
}

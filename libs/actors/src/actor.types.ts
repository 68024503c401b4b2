import type { Decision, OutboxEvent } from '@app/kernel';
import type { SqlExecutor } from '@app/persistence';

export type { Decision, OutboxEvent };

export interface Snapshot<S> {
  state: S;
  /** 0 for an actor never written. */
  version: number;
}

export interface SnapshotWrite<S> {
  id: string;
  shard: number;
  /** The lease epoch the write was made under: written only if its shard's lease is still at it. */
  epoch: number;
  state: S;
  /** The stored version this write replaces (0: the row must not exist yet). */
  expectedVersion: number;
}

/** Returns the placeholder (`$n`) of a new parameter of the statement being built. */
export type StatementParam = (value: unknown) => string;

/** A store's part of the group commit's one statement (see `SnapshotStore.statement`). */
export interface SnapshotStatement {
  /** Common table expressions (each `name as (...)`), the last named `<prefix>written` with an `id` column. */
  ctes: string[];
  /** Told which ids were written once the statement has committed. */
  written?(ids: ReadonlySet<string>): void;
}

/** Where a kind keeps its snapshots. Writes are conditional on the version: a stale writer loses. */
export interface SnapshotStore<S> {
  /**
   * The snapshots of `ids` that exist, by id. The host loads the actors activating at the same time
   * in one statement (one round trip for many, as the writer commits many in one transaction).
   */
  loadMany(db: SqlExecutor, ids: readonly string[]): Promise<Map<string, Snapshot<S>>>;
  /**
   * The CTEs that write `items` within the group commit's one statement: an item is written when its
   * shard's lease is held at its epoch (join the items with the statement's `fence(shard, epoch)`)
   * and its stored version matches; the others are fenced or conflicts. CTE names start with
   * `prefix`. The text may not depend on the items (only the parameters do): one prepared statement
   * serves every batch of the same stores.
   */
  statement(items: SnapshotWrite<S>[], prefix: string, param: StatementParam): SnapshotStatement;
}

export interface ActorContext<S> {
  readonly kind: string;
  readonly id: string;
  readonly shard: number;
  /** The node and lease epoch processing this message. */
  readonly owner: string;
  readonly epoch: number;
  /** The last persisted state; undefined for an actor that does not exist yet. */
  readonly state: S | undefined;
  now(): Date;
  /** Persists a checkpoint (state and events) before the handler goes on: a saga step. */
  save(state: S, events?: OutboxEvent[]): Promise<void>;
}

/** A kind of actor: its store and how it handles a command, one at a time per actor. */
export interface ActorKind<S = unknown, C = unknown, R = unknown> {
  readonly kind: string;
  readonly store: SnapshotStore<S>;
  handle(ctx: ActorContext<S>, command: C): Promise<Decision<S, R>>;
}

/** What travels on `actors.<kind>.<shard>`. */
export interface ActorRequest {
  kind: string;
  id: string;
  command: unknown;
  commandId: string;
  attempt: number;
  /** When the client sent this attempt (epoch ms): the node reports commands answered late. */
  sentAt?: number;
  /**
   * The caller minted `id` for this command, so on its first attempt nothing is stored under it: the
   * node skips the snapshot read. Only a hint: should a row exist after all, the insert reports a
   * conflict and the retry reads.
   */
  fresh?: true;
}

/**
 * Also on `actors.<kind>.<shard>`: a client whose command is slow asks whether the shard's owner is
 * still working on it. No responders, or an owner that is not, means the node that took it is gone.
 */
export interface ActorProbe {
  probe: string;
}

export interface ActorProbeAnswer {
  running: boolean;
}

export type ActorResponse =
  | { ok: true; reply: unknown }
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } }
  /** Not served here (moving, fenced): the client retries. */
  | { retry: 'not_owner' | 'fenced' | 'conflict' | 'database_unavailable' };

/** The write lost its lease: another node owns the shard now. */
export class FencedError extends Error {
  constructor(shard: number) {
    super(`Lease of shard ${shard} is no longer held`);
    this.name = 'FencedError';
  }
}

/** The stored version moved on: another writer got there first. */
export class VersionConflictError extends Error {
  constructor(kind: string, id: string) {
    super(`Snapshot of ${kind} ${id} changed underneath`);
    this.name = 'VersionConflictError';
  }
}

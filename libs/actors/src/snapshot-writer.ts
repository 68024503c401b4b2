import { Logger } from '@nestjs/common';
import { SqlExecutor, newId } from '@app/persistence';
import { FencedError, OutboxEvent, SnapshotStore, VersionConflictError } from './actor.types';
import { fencedEpochs } from './lease.repository';

export interface PendingWrite {
  kind: string;
  store: SnapshotStore<unknown>;
  id: string;
  shard: number;
  epoch: number;
  state: unknown;
  expectedVersion: number;
  events: OutboxEvent[];
  /** Recorded with the write so a retried command is answered, not applied again. */
  command?: { id: string; reply: unknown };
}

interface Queued {
  write: PendingWrite;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Largest group commit: bounds transaction size and the latency of its first writer. */
const MAX_BATCH = 256;

/**
 * Group commit: snapshot writes of many actors queued while a transaction runs go together in
 * the next one. Each write is fenced (its shard's lease, at its epoch, still ours and live) and
 * conditional on its version; the outbox events and the command record go in the same transaction.
 */
export class SnapshotWriter {
  private readonly logger = new Logger(SnapshotWriter.name);
  private queue: Queued[] = [];
  private flushing = false;

  constructor(
    private readonly db: SqlExecutor,
    private readonly owner: string,
    private readonly onFenced: (shard: number) => void = () => undefined,
    /** Outbox events were committed: the outbox relay need not poll for them. */
    private readonly onEvents: () => void = () => undefined,
  ) {}

  submit(write: PendingWrite): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.flush(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async flush(batch: Queued[]): Promise<void> {
    let outcomes: Map<Queued, Error | null>;
    try {
      outcomes = await this.db.transaction((tx) => this.writeBatch(tx, batch));
    } catch (error) {
      if (batch.length > 1) {
        // One bad write must not fail its neighbours: retry each alone.
        for (const item of batch) await this.flush([item]);
        return;
      }
      this.logger.error({ err: error, kind: batch[0].write.kind, id: batch[0].write.id }, 'Snapshot write failed');
      batch[0].reject(error as Error);
      return;
    }
    let events = false;
    for (const [item, error] of outcomes) {
      if (error) item.reject(error);
      else item.resolve();
      events ||= !error && item.write.events.length > 0;
    }
    if (events) this.onEvents();
  }

  private async writeBatch(tx: SqlExecutor, batch: Queued[]): Promise<Map<Queued, Error | null>> {
    const outcomes = new Map<Queued, Error | null>();
    const shards = [...new Set(batch.map((q) => q.write.shard))];
    // Locked until this transaction ends: another node's claim of these shards waits for it.
    const epochs = await fencedEpochs(tx, this.owner, shards);
    const live = batch.filter((q) => {
      if (epochs.get(q.write.shard) === q.write.epoch) return true;
      outcomes.set(q, new FencedError(q.write.shard));
      this.onFenced(q.write.shard);
      return false;
    });
    const written: Queued[] = [];
    for (const [store, items] of groupBy(live, (q) => q.write.store)) {
      const ids = await store.write(
        tx,
        items.map((q) => ({
          id: q.write.id,
          shard: q.write.shard,
          state: q.write.state,
          expectedVersion: q.write.expectedVersion,
        })),
      );
      for (const q of items) {
        if (ids.has(q.write.id)) written.push(q);
        else outcomes.set(q, new VersionConflictError(q.write.kind, q.write.id));
      }
    }
    await insertEventsAndCommands(tx, written);
    written.forEach((q) => outcomes.set(q, null));
    return outcomes;
  }
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/**
 * The outbox events and the command records of the written snapshots, in one statement (one round
 * trip of the group commit instead of two; either list may be empty).
 */
async function insertEventsAndCommands(tx: SqlExecutor, written: Queued[]): Promise<void> {
  const events = written.flatMap((q) => q.write.events.map((event) => ({ q, event })));
  const commands = written.filter((q) => q.write.command);
  if (!events.length && !commands.length) return;
  await tx.query(
    `with events as (
       insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id)
       select * from unnest(?::text[], ?::text[], ?::text[], ?::jsonb[], ?::text[], ?::text[])
     )
     insert into actor_commands (command_id, kind, actor_id, reply)
     select * from unnest(?::text[], ?::text[], ?::text[], ?::jsonb[]) on conflict do nothing`,
    [
      events.map(() => newId('evt')),
      events.map((r) => r.event.workspaceId),
      events.map((r) => r.event.type),
      events.map((r) => JSON.stringify(r.event.data)),
      events.map((r) => r.q.write.kind),
      events.map((r) => r.q.write.id),
      commands.map((q) => q.write.command?.id),
      commands.map((q) => q.write.kind),
      commands.map((q) => q.write.id),
      commands.map((q) => JSON.stringify(q.write.command?.reply ?? null)),
    ],
  );
}

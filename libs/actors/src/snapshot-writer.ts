import { Logger } from '@nestjs/common';
import { SqlExecutor, newId } from '@app/persistence';
import { FencedError, OutboxEvent, SnapshotStore, SnapshotWrite, VersionConflictError } from './actor.types';
import { fenceSql } from './lease.repository';

/** A snapshot write as its store writes it, with what the group commit stores beside it. */
export interface PendingWrite extends SnapshotWrite<unknown> {
  kind: string;
  store: SnapshotStore<unknown>;
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
      outcomes = await this.writeBatch(batch);
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

  /**
   * The batch in one statement, its own transaction: the fence (the shards' leases still ours, locked
   * against a claim until it commits), each store's writes joined with it, and the outbox events and
   * command records of what was written. One round trip, parsed once per connection, instead of
   * begin, fence, writes, events and commit.
   */
  private async writeBatch(batch: Queued[]): Promise<Map<Queued, Error | null>> {
    const groups = [...groupBy(batch, (q) => q.write.store)];
    const { name, text, values, statements } = groupCommitStatement(this.owner, groups);
    const rows = await this.db.prepared<{ what: 'fence' | 'written'; n: number; id: string }>(name, text, values);
    const epochs = new Map<number, number>();
    const written = groups.map(() => new Set<string>());
    for (const row of rows) {
      if (row.what === 'fence') epochs.set(row.n, Number(row.id));
      else written[row.n].add(row.id);
    }
    statements.forEach((statement, i) => statement.written?.(written[i]));
    const outcomes = new Map<Queued, Error | null>();
    groups.forEach(([, items], i) => {
      for (const q of items) {
        if (written[i].has(q.write.id)) outcomes.set(q, null);
        else if (epochs.get(q.write.shard) !== q.write.epoch) {
          outcomes.set(q, new FencedError(q.write.shard));
          this.onFenced(q.write.shard);
        } else outcomes.set(q, new VersionConflictError(q.write.kind, q.write.id));
      }
    });
    return outcomes;
  }
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Statement names by text: each distinct text (set of stores) is prepared once per connection. */
const statementNames = new Map<string, string>();

/**
 * The group commit as one statement. Rows out: `fence` (n: shard, id: its epoch) for each lease
 * held, `written` (n: the store's index in `groups`, id) for each snapshot written.
 */
function groupCommitStatement(owner: string, groups: [SnapshotStore<unknown>, Queued[]][]) {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const writes = groups.flatMap(([, items]) => items.map((q) => q.write));
  const shards = [...new Set(writes.map((w) => w.shard))];
  const ctes = [
    // Locked until the statement commits: another node's claim of these shards waits for it.
    `fence as (${fenceSql(param(shards), param(owner))})`,
  ];
  const statements = groups.map(([store, items], i) => {
    const statement = store.statement(
      items.map((q) => q.write),
      `s${i}_`,
      param,
    );
    ctes.push(...statement.ctes);
    return statement;
  });
  ctes.push(`written as (${groups.map((_, i) => `select ${i} as store, id from s${i}_written`).join(' union all ')})`);
  const events = groups.flatMap(([, items], store) =>
    items.flatMap(({ write: w }) => w.events.map((event) => ({ store, w, event }))),
  );
  ctes.push(
    `events as (insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id)
       select e.id, e.workspace_id, e.type, e.data, e.aggregate_kind, e.aggregate_id
       from unnest(${param(events.map(() => newId('evt')))}::text[], ${param(events.map((e) => e.event.workspaceId))}::text[],
         ${param(events.map((e) => e.event.type))}::text[], ${param(events.map((e) => JSON.stringify(e.event.data)))}::jsonb[],
         ${param(events.map((e) => e.w.kind))}::text[], ${param(events.map((e) => e.w.id))}::text[],
         ${param(events.map((e) => e.store))}::int[])
         as e(id, workspace_id, type, data, aggregate_kind, aggregate_id, store)
       join written w on w.store = e.store and w.id = e.aggregate_id)`,
  );
  const commands = groups.flatMap(([, items], store) =>
    items.flatMap(({ write: w }) => (w.command ? [{ store, w, command: w.command }] : [])),
  );
  ctes.push(
    `commands as (insert into actor_commands (command_id, kind, actor_id, reply)
       select c.command_id, c.kind, c.actor_id, c.reply
       from unnest(${param(commands.map((c) => c.command.id))}::text[], ${param(commands.map((c) => c.w.kind))}::text[],
         ${param(commands.map((c) => c.w.id))}::text[], ${param(commands.map((c) => JSON.stringify(c.command.reply ?? null)))}::jsonb[],
         ${param(commands.map((c) => c.store))}::int[])
         as c(command_id, kind, actor_id, reply, store)
       join written w on w.store = c.store and w.id = c.actor_id
       on conflict do nothing)`,
  );
  const text = `with ${ctes.join(',\n')}
    select 'fence' as what, shard as n, epoch::text as id from fence
    union all select 'written', store, id from written`;
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `group_commit_${statementNames.size + 1}`));
  return { name, text, values, statements };
}

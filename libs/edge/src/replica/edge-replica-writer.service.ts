import { Bus } from '@app/bus';
import { EDGE_INVALIDATE_SUBJECT } from '@app/kernel';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ChangeCursor } from './change-cursor';
import { EdgeReplica } from './edge-replica';
import { EdgeReplicaQueries } from './edge-replica.queries';
import { CHECKPOINT_KEY, hostnameOfKey, replicaKey } from './replica-entry';
import { EDGE_REPLICA, REPLICA_WRITER_MODE, ReplicaWriterMode } from './replica.tokens';

const POLL_MS = 250;
const BATCH = 500;
const PAGE = 1_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const KEEP_LOG_HOURS = 24;
/** A full comparison this often (each writer at a random point in the first period). */
const RECONCILE_EVERY_MS = 6 * 3_600_000;

/**
 * Copies what changed in PostgreSQL into the edge replica: tails `edge_changes` (appended by
 * triggers) every 250 ms, at once on `edge.invalidate`, and writes each changed hostname's entry
 * (or deletes it). Resumes from the checkpoint kept in the replica; without one, or when the log no
 * longer reaches back to it, loads every live domain and deletes what is not live. Several writers
 * may run (every node): each write is re-checked against PostgreSQL afterwards, so the last word is
 * always the database's, whoever wrote last. Every few hours a writer compares every live domain
 * with the replica (`reconcile`): what the log could not carry (a change committed after its hole
 * was given up, a write lost with a process) is put right without a reload.
 */
@Injectable()
export class EdgeReplicaWriter implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EdgeReplicaWriter.name);
  private cursor?: ChangeCursor;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private failing = false;
  private prunedAt = 0;
  private reconcileAt = Date.now() + Math.random() * RECONCILE_EVERY_MS;
  private unsubscribe?: () => void;

  constructor(
    @Inject(EDGE_REPLICA) private readonly replica: EdgeReplica,
    private readonly queries: EdgeReplicaQueries,
    private readonly bus: Bus,
    @Inject(REPLICA_WRITER_MODE) private readonly mode: ReplicaWriterMode,
  ) {}

  /** The first pass before the traffic ports open when the edge is in this process (`beforeStart`). */
  async onModuleInit(): Promise<void> {
    if (this.mode === 'beforeStart') await this.pass();
  }

  onApplicationBootstrap(): void {
    if (this.mode === 'off') return;
    this.unsubscribe = this.bus.subscribe(EDGE_INVALIDATE_SUBJECT, () => this.wake());
    this.wake();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await this.running;
  }

  /** Resolves once everything logged so far is in the replica (tests, the first load). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.running) return void (this.again = true);
    clearTimeout(this.timer);
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) return ((this.again = false), this.wake());
      this.timer = setTimeout(() => this.wake(), POLL_MS).unref();
    });
  }

  private async pass(): Promise<void> {
    try {
      this.cursor ??= await this.start();
      while (await this.step(this.cursor));
      if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
        await this.queries.prune(KEEP_LOG_HOURS);
        this.prunedAt = Date.now();
      }
      if (Date.now() >= this.reconcileAt) {
        const fixed = await this.reconcile();
        this.reconcileAt = Date.now() + RECONCILE_EVERY_MS;
        if (fixed.written || fixed.deleted)
          this.logger.warn(fixed, 'Edge replica reconciled: entries differed from PostgreSQL');
      }
      if (this.failing) this.logger.log('Edge replica writer is copying changes again');
      this.failing = false;
    } catch (error) {
      // PostgreSQL or NATS away: the edges keep serving their copy; the log waits for us.
      if (!this.failing) this.logger.warn({ err: error }, 'Edge replica writer cannot copy changes; retrying');
      this.failing = true;
    }
  }

  /** Copies one batch of changes; true when there may be more. */
  private async step(cursor: ChangeCursor): Promise<boolean> {
    const changes = await this.queries.changes(cursor.last, cursor.openHoles(Date.now()), BATCH);
    if (!changes.length) return false;
    await this.sync([...new Set(changes.map((c) => c.hostname))]);
    const before = cursor.last;
    cursor.advance(
      changes.map((c) => c.seq),
      Date.now(),
    );
    if (cursor.last > before) await this.replica.put(CHECKPOINT_KEY, JSON.stringify({ seq: cursor.last }));
    return changes.length === BATCH;
  }

  private async start(): Promise<ChangeCursor> {
    const range = await this.queries.range();
    const saved = Number((JSON.parse((await this.replica.get(CHECKPOINT_KEY)) ?? '{}') as { seq?: number }).seq ?? 0);
    if (saved > 0 && saved >= range.first - 1) return new ChangeCursor(saved);
    // No checkpoint, or the log was pruned past it: start from everything live, then the log's end.
    const started = Date.now();
    const { live } = await this.copyAll(false);
    await this.replica.put(CHECKPOINT_KEY, JSON.stringify({ seq: range.last }));
    this.logger.log(`Edge replica loaded: ${live} hostnames in ${Date.now() - started} ms`);
    return new ChangeCursor(range.last);
  }

  /**
   * Every live domain against the replica, writing only what differs, and deleting entries of
   * hostnames that are not live (read again first: one created meanwhile stays). Runs between
   * passes, so a change made meanwhile is in the log after the cursor and is copied next.
   */
  async reconcile(): Promise<{ written: number; deleted: number }> {
    const { written, deleted } = await this.copyAll(true);
    return { written, deleted };
  }

  /** Copies every live domain; `compare`: only where the replica holds something else. */
  private async copyAll(compare: boolean): Promise<{ live: number; written: number; deleted: number }> {
    const live = new Set<string>();
    let written = 0;
    for (let after = ''; ;) {
      const page = await this.queries.page(after, PAGE);
      await Promise.all(
        page.map(async (entry) => {
          const key = replicaKey(entry.hostname);
          const value = JSON.stringify(entry);
          live.add(key);
          if (compare && (await this.replica.get(key)) === value) return;
          written++;
          await this.replica.put(key, value);
        }),
      );
      if (page.length < PAGE) break;
      after = page[page.length - 1].hostname;
    }
    const stray = (await this.replica.keys()).filter((key) => hostnameOfKey(key) !== undefined && !live.has(key));
    const stillLive = new Set(
      stray.length ? (await this.queries.entries(stray.map((key) => hostnameOfKey(key)!))).map((e) => e.hostname) : [],
    );
    const gone = stray.filter((key) => !stillLive.has(hostnameOfKey(key)!));
    for (const key of gone) await this.replica.delete(key);
    return { live: live.size, written, deleted: gone.length };
  }

  /** Writes each hostname's entry, then reads PostgreSQL again until the replica agrees with it. */
  private async sync(hostnames: string[]): Promise<void> {
    let pending = hostnames;
    for (let round = 0; pending.length && round < 3; round++) {
      const wanted = new Map((await this.queries.entries(pending)).map((e) => [e.hostname, JSON.stringify(e)]));
      const changed: string[] = [];
      await Promise.all(
        pending.map(async (hostname) => {
          const key = replicaKey(hostname);
          const value = wanted.get(hostname);
          if ((await this.replica.get(key)) === value) return;
          changed.push(hostname);
          await (value === undefined ? this.replica.delete(key) : this.replica.put(key, value));
        }),
      );
      pending = changed;
    }
  }
}

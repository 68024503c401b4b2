import { Bus } from '@app/bus';
import { EDGE_INVALIDATE_SUBJECT } from '@app/kernel';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ChangeCursor } from './change-cursor';
import { EdgeReplica } from './edge-replica';
import { EdgeReplicaQueries } from './edge-replica.queries';
import { CHECKPOINT_KEY, LOADING_KEY, hostnameOfKey, replicaKey } from './replica-entry';
import { EDGE_REPLICA, REPLICA_WRITER_MODE, ReplicaWriterMode } from './replica.tokens';

const POLL_MS = 250;
const BATCH = 500;
const PAGE = 1_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const KEEP_LOG_HOURS = 24;
/** A full comparison this often (each writer at a random point in the first period). */
const RECONCILE_EVERY_MS = 6 * 3_600_000;
/** The loading writer refreshes its lease every page; one not refreshed for this long is a dead writer's. */
const LOAD_LEASE_STALE_MS = 60_000;

/** How far a copy of every live domain got: a failed page is copied again, not the whole table. */
interface CopyProgress {
  /** The replica's keys before the copy's first page: those not copied are the candidates to delete. */
  before?: string[];
  after: string;
  live: Set<string>;
  written: number;
}

const newProgress = (): CopyProgress => ({ after: '', live: new Set(), written: 0 });

/** Ends a copy when the process stops (not a failure to report). */
class Stopping extends Error {}

/**
 * Copies what changed in PostgreSQL into the edge replica: tails the change log (`edge_change_log`:
 * numbered by triggers, on domain rows and in `edge_changes`) every 250 ms, at once on
 * `edge.invalidate`, and writes each changed hostname's entry (or deletes it). Resumes from the
 * checkpoint kept in the replica; without one, or when the log was pruned past it, loads every
 * live domain and deletes what is not live: one writer at a time (a lease in the replica,
 * `LOADING_KEY`), resuming at the page that failed; the others wait for its checkpoint. Several writers may run (every node): each write is re-checked against
 * PostgreSQL afterwards, so the last word is always the database's, whoever wrote last. Every few
 * hours a writer compares every live domain with the replica (`reconcile`): what the log could not
 * carry (a change committed after its hole was given up, a write lost with a process) is put right
 * without a reload.
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
  /** Who holds the load's lease. */
  private readonly id = randomUUID();
  /** The load of every live domain this writer holds the lease of, until its checkpoint is written. */
  private load?: { range: { pruned: number; last: number }; progress: CopyProgress; started: number };
  private toldWaiting = false;

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
    // A load cut short: another writer takes it over now, not once the lease is stale.
    if (this.load) await this.replica.delete(LOADING_KEY).catch(() => undefined);
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
      // Undefined while another writer loads every live domain: its checkpoint is read on a later pass.
      this.cursor ??= await this.start();
      if (this.cursor) {
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
      }
      if (this.failing) this.logger.log('Edge replica writer is copying changes again');
      this.failing = false;
    } catch (error) {
      if (error instanceof Stopping) return;
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

  /** The cursor to resume from; undefined while another writer holds the load of every live domain. */
  private async start(): Promise<ChangeCursor | undefined> {
    if (!this.load) {
      const range = await this.queries.range();
      const saved = await this.checkpoint();
      if (saved > 0 && saved >= range.pruned) return new ChangeCursor(saved);
      // No checkpoint, or the log was pruned past it: everything live, then the log's end. One
      // writer at a time: at a million domains a load is minutes of puts, and all alike.
      if (!(await this.leaseLoad())) {
        if (!this.toldWaiting) this.logger.log('Edge replica: another writer is loading every live domain; waiting');
        this.toldWaiting = true;
        return undefined;
      }
      // Its checkpoint may have landed between the read above and the lease.
      const now = await this.checkpoint();
      if (now > 0 && now >= range.pruned) {
        await this.replica.delete(LOADING_KEY);
        return new ChangeCursor(now);
      }
      this.load = { range, progress: newProgress(), started: Date.now() };
    }
    const { range, progress, started } = this.load;
    const { live } = await this.copyAll(false, progress, () => this.refreshLease());
    await this.replica.put(CHECKPOINT_KEY, JSON.stringify({ seq: range.last }));
    this.load = undefined;
    await this.replica.delete(LOADING_KEY);
    this.logger.log(`Edge replica loaded: ${live} hostnames in ${Date.now() - started} ms`);
    return new ChangeCursor(range.last);
  }

  private async checkpoint(): Promise<number> {
    const saved = JSON.parse((await this.replica.get(CHECKPOINT_KEY)) ?? '{}') as { seq?: number };
    return Number(saved.seq ?? 0);
  }

  /** Takes the load's lease: free, or left by a writer that stopped refreshing it (died mid-load). */
  private async leaseLoad(): Promise<boolean> {
    const lease = JSON.stringify({ by: this.id, at: Date.now() });
    if (await this.replica.create(LOADING_KEY, lease)) return true;
    const held = JSON.parse((await this.replica.get(LOADING_KEY)) ?? '{}') as { at?: number };
    if (held.at !== undefined && Date.now() - held.at < LOAD_LEASE_STALE_MS) return false;
    // Two writers taking a stale lease at once both load: wasted work, nothing wrong.
    await this.replica.put(LOADING_KEY, lease);
    return true;
  }

  private async refreshLease(): Promise<void> {
    if (this.stopped) throw new Stopping();
    await this.replica.put(LOADING_KEY, JSON.stringify({ by: this.id, at: Date.now() }));
  }

  /**
   * Every live domain against the replica, writing only what differs, and deleting the entries
   * (present when it started) of hostnames that are not live (read again first: one created
   * meanwhile stays). Runs between passes, so a change made meanwhile is in the log after the
   * cursor and is copied next.
   */
  async reconcile(): Promise<{ written: number; deleted: number }> {
    const { written, deleted } = await this.copyAll(true);
    return { written, deleted };
  }

  /**
   * Copies every live domain; `compare`: only where the replica holds something else. Goes on from
   * `progress` (a copy that failed part way) and calls `onPage` after each page.
   */
  private async copyAll(
    compare: boolean,
    progress = newProgress(),
    onPage?: () => Promise<void>,
  ): Promise<{ live: number; written: number; deleted: number }> {
    const { live } = progress;
    // Listed before, not after: a load into a new bucket lists nothing, where listing the million
    // keys it wrote would take minutes (a headers-only consumer, last message per subject).
    progress.before ??= await this.replica.keys();
    for (;;) {
      const page = await this.queries.page(progress.after, PAGE);
      await Promise.all(
        page.map(async (entry) => {
          const key = replicaKey(entry.hostname);
          const value = JSON.stringify(entry);
          live.add(key);
          if (compare && (await this.replica.get(key)) === value) return;
          progress.written++;
          await this.replica.put(key, value);
        }),
      );
      await onPage?.();
      if (page.length < PAGE) break;
      progress.after = page[page.length - 1].hostname;
    }
    const stray = progress.before.filter((key) => hostnameOfKey(key) !== undefined && !live.has(key));
    const stillLive = new Set(
      stray.length ? (await this.queries.entries(stray.map((key) => hostnameOfKey(key)!))).map((e) => e.hostname) : [],
    );
    const gone = stray.filter((key) => !stillLive.has(hostnameOfKey(key)!));
    for (const key of gone) await this.replica.delete(key);
    return { live: live.size, written: progress.written, deleted: gone.length };
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

import { Logger } from '@nestjs/common';
import { Bus } from '@app/bus';
import type DataLoader from 'dataloader';
import { type SqlExecutor, batchedReads } from '@app/persistence';
import {
  ActorContext,
  ActorKind,
  ActorProbe,
  ActorProbeAnswer,
  ActorRequest,
  ActorResponse,
  OutboxEvent,
  Snapshot,
} from './actor.types';
import { storedReply } from './actor-command.store';
import { ActorMetrics } from './actors.metrics';
import { EvictionReason, failureVerdict } from './command-failure';
import { Lease } from './lease.repository';
import { shardSubject } from './shard';
import { newResident, recentReply, rememberReply, Resident } from './resident';
import { PendingWrite } from './snapshot-writer';

/** Where the host sends writes: the group-committing SnapshotWriter in production. */
export interface WriteSink {
  submit(write: PendingWrite): Promise<void>;
}

const isProbe = (payload: unknown): payload is ActorProbe =>
  typeof payload === 'object' && payload !== null && 'probe' in payload;

/** Why an actor leaves memory: passivated (idle, or the least recently used at the cap), or evicted. */
type Departure = 'idle' | 'capacity' | 'shard_moved' | EvictionReason;

/**
 * A reply this long after the client sent the request (transit, mailbox wait and work) is logged:
 * past the client's attempt timeout (5 s by default, 15 s for domain commands) it retries, and the
 * log says the request was not lost.
 */
const LATE_REPLY_MS = 2_000;

export interface HostLimits {
  /** Idle actors are passivated after this long. */
  idleMs: number;
  /** Most actors resident at once; the least recently used idle ones go first. */
  maxResident: number;
}

export interface LeaseSource {
  lease(shard: number): Lease | undefined;
}

/**
 * Hosts the actors of the shards this node serves: activation from snapshots, one message at a
 * time per actor, write-through persistence before the reply, and passivation.
 */
export class ActorHost {
  private readonly logger = new Logger(ActorHost.name);
  private readonly kinds = new Map<string, ActorKind>();
  /** Keyed `kind:id`; Map order doubles as the LRU order (touched actors move to the end). */
  private readonly residents = new Map<string, Resident>();
  /** The residents of each shard: a node handing off its 4,096 shards looks each up, not all residents per shard. */
  private readonly byShard = new Map<number, Set<Resident>>();
  private readonly loaders = new Map<string, DataLoader<string, Snapshot<unknown> | undefined>>();
  private readonly subscriptions = new Map<number, () => void>();
  /** Shards being handed off or dropped: requests still arriving for them are sent elsewhere. */
  private readonly leaving = new Set<number>();
  /** Commands taken in and not yet answered, by command id (a client probes for its slow ones). */
  private readonly running = new Map<string, number>();
  private leases?: LeaseSource;
  private sweeper?: NodeJS.Timeout;

  constructor(
    readonly nodeId: string,
    private readonly bus: Bus,
    private readonly db: SqlExecutor,
    private readonly writer: WriteSink,
    private readonly metrics: ActorMetrics,
    private readonly limits: HostLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  register(kind: ActorKind): void {
    this.kinds.set(kind.kind, kind);
  }

  start(leases: LeaseSource): void {
    this.leases = leases;
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => this.passivate(), Math.min(10_000, this.limits.idleMs));
    // Process-lifetime timers never hold the process (or a test worker) open by themselves.
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  get residentCount(): number {
    return this.residents.size;
  }

  mailboxDepth(): number {
    let depth = 0;
    for (const r of this.residents.values()) depth += r.mailbox.depth;
    return depth;
  }

  acquire(shard: number): void {
    this.leaving.delete(shard);
    this.subscriptions.get(shard)?.();
    this.subscriptions.set(
      shard,
      this.bus.serve(shardSubject(shard), async (payload) =>
        isProbe(payload) ? this.answerProbe(payload) : this.dispatch(shard, payload as ActorRequest),
      ),
    );
    this.metrics.shardsOwned.inc();
  }

  /** Graceful: stop taking messages, let queued ones finish, then forget the shard's actors. */
  async release(shard: number): Promise<void> {
    // Requests already on their way (the subscription drains) get a retry, not a new resident.
    this.leaving.add(shard);
    this.unsubscribe(shard);
    const actors = [...(this.byShard.get(shard) ?? [])];
    await Promise.all(actors.map((r) => r.mailbox.idle()));
    actors.forEach((r) => this.evict(r, 'shard_moved'));
  }

  /** Immediate: the lease is gone; in-flight writes will be fenced. */
  drop(shard: number): void {
    this.leaving.add(shard);
    this.unsubscribe(shard);
    for (const r of [...(this.byShard.get(shard) ?? [])]) this.evict(r, 'shard_moved');
  }

  answerProbe(probe: ActorProbe): ActorProbeAnswer {
    return { running: this.running.has(probe.probe) };
  }

  /** Handles one request; also used directly by tests and benchmarks. */
  async dispatch(shard: number, request: ActorRequest): Promise<ActorResponse> {
    const kind = this.kinds.get(request.kind);
    if (!kind) return { ok: false, error: { code: 'bad_request', message: `Unknown actor kind ${request.kind}` } };
    if (!this.leases?.lease(shard) || this.leaving.has(shard)) {
      const now = this.clock();
      this.reportIfLate(request, now, now);
      return { retry: 'not_owner' };
    }
    const key = `${request.kind}:${request.id}`;
    let resident = this.residents.get(key);
    if (resident) this.residents.delete(key);
    else resident = this.newResident(kind, request.id, shard);
    this.residents.set(key, resident);
    resident.lastActive = this.clock();
    const target = resident;
    const { commandId } = request;
    this.running.set(commandId, (this.running.get(commandId) ?? 0) + 1);
    try {
      return await target.mailbox.run(() => this.process(target, request));
    } finally {
      const left = (this.running.get(commandId) ?? 1) - 1;
      if (left) this.running.set(commandId, left);
      else this.running.delete(commandId);
    }
  }

  private newResident(kind: ActorKind, id: string, shard: number): Resident {
    if (this.residents.size >= this.limits.maxResident) this.evictOldestIdle();
    const resident = newResident(kind, id, shard);
    let ofShard = this.byShard.get(shard);
    if (!ofShard) this.byShard.set(shard, (ofShard = new Set()));
    ofShard.add(resident);
    return resident;
  }

  private async process(actor: Resident, request: ActorRequest): Promise<ActorResponse> {
    const started = this.clock();
    const lease = this.leases?.lease(actor.shard);
    if (!lease || actor.evicted) {
      this.reportIfLate(request, started, started);
      return { retry: 'not_owner' };
    }
    try {
      if (!actor.loaded) await this.activate(actor, request.fresh === true && request.attempt === 1);
      const remembered = await this.rememberedReply(actor, request);
      if (remembered) return { ok: true, reply: remembered.reply };
      const decision = await actor.kind.handle(this.context(actor, lease), request.command);
      if (decision.state !== undefined || decision.events?.length) {
        const state = decision.state !== undefined ? decision.state : actor.state;
        const record = decision.retryAnsweredByState ? undefined : { id: request.commandId, reply: decision.reply };
        await this.persist(actor, lease, state, decision.events ?? [], record);
      }
      decision.afterWrite?.();
      rememberReply(actor, request.commandId, decision.reply);
      this.metrics.commands.inc({ kind: request.kind, outcome: 'ok' });
      return { ok: true, reply: decision.reply };
    } catch (error) {
      return this.failure(actor, request, error);
    } finally {
      const now = this.clock();
      this.metrics.commandSeconds.observe({ kind: request.kind }, (now - started) / 1000);
      this.reportIfLate(request, started, now);
    }
  }

  private reportIfLate(request: ActorRequest, started: number, now: number): void {
    const { kind, id, commandId, attempt, sentAt } = request;
    if (sentAt === undefined || now - sentAt < LATE_REPLY_MS) return;
    this.logger.warn(
      { kind, id, commandId, attempt, sinceSentMs: now - sentAt, workMs: now - started },
      'Actor command answered late',
    );
  }

  private failure(actor: Resident, request: ActorRequest, error: unknown): ActorResponse {
    const verdict = failureVerdict(request, error);
    if (verdict.log) this.logger[verdict.log.level](verdict.log.fields, verdict.log.message);
    if (verdict.evict === 'fenced') this.metrics.fencedWrites.inc();
    if (verdict.evict) this.evict(actor, verdict.evict);
    if (verdict.outcome) this.metrics.commands.inc({ kind: request.kind, outcome: verdict.outcome });
    return verdict.response;
  }

  /** `fresh`: the id was minted for this command, nothing can be stored under it (see ActorRequest.fresh). */
  private async activate(actor: Resident, fresh: boolean): Promise<void> {
    const snapshot = fresh ? undefined : await this.snapshotLoader(actor.kind).load(actor.id);
    actor.state = snapshot?.state;
    actor.version = snapshot?.version ?? 0;
    actor.loaded = true;
    this.metrics.activations.inc({ kind: actor.kind.kind });
  }

  /**
   * Per kind, the loads of the actors activating in the same tick go as one statement (`batchedReads`:
   * every activation reads the row as it is now). Under load many actors activate at once (each new
   * domain is a new actor).
   */
  private snapshotLoader(kind: ActorKind): DataLoader<string, Snapshot<unknown> | undefined> {
    let loader = this.loaders.get(kind.kind);
    if (!loader) {
      const store = kind.store;
      loader = batchedReads(async (ids: readonly string[]) => {
        const found = await store.loadMany(this.db, ids);
        return ids.map((id) => found.get(id));
      });
      this.loaders.set(kind.kind, loader);
    }
    return loader;
  }

  /** A retry (attempt > 1) may have been applied by a previous owner: look it up before applying. */
  private async rememberedReply(actor: Resident, request: ActorRequest): Promise<{ reply: unknown } | undefined> {
    const recent = recentReply(actor, request.commandId);
    if (recent || request.attempt <= 1) return recent;
    return storedReply(this.db, request.commandId);
  }

  private context(actor: Resident, lease: Lease): ActorContext<unknown> {
    return {
      kind: actor.kind.kind,
      id: actor.id,
      shard: actor.shard,
      owner: this.nodeId,
      epoch: lease.epoch,
      get state() {
        return actor.state;
      },
      now: () => new Date(this.clock()),
      save: (state: unknown, events: OutboxEvent[] = []) => this.persist(actor, lease, state, events),
    };
  }

  private async persist(
    actor: Resident,
    lease: Lease,
    state: unknown,
    events: OutboxEvent[],
    command?: { id: string; reply: unknown },
  ): Promise<void> {
    await this.writer.submit({
      kind: actor.kind.kind,
      store: actor.kind.store,
      id: actor.id,
      shard: actor.shard,
      epoch: lease.epoch,
      state,
      expectedVersion: actor.version,
      events,
      command,
    });
    actor.state = state;
    actor.version += 1;
  }

  private unsubscribe(shard: number): void {
    const unsubscribe = this.subscriptions.get(shard);
    if (!unsubscribe) return;
    unsubscribe();
    this.subscriptions.delete(shard);
    this.metrics.shardsOwned.dec();
  }

  private evict(actor: Resident, why: Departure): void {
    const key = `${actor.kind.kind}:${actor.id}`;
    if (this.residents.get(key) === actor) this.residents.delete(key);
    const ofShard = this.byShard.get(actor.shard);
    if (ofShard?.delete(actor) && !ofShard.size) this.byShard.delete(actor.shard);
    if (actor.evicted) return;
    actor.evicted = true;
    if (why === 'idle' || why === 'capacity') this.metrics.passivations.inc({ kind: actor.kind.kind });
    else this.metrics.evictions.inc({ kind: actor.kind.kind, reason: why });
  }

  private evictOldestIdle(): void {
    for (const actor of this.residents.values()) {
      if (actor.mailbox.depth === 0) return this.evict(actor, 'capacity');
    }
  }

  /** Passivates actors idle for longer than `idleMs`; oldest first, so the scan stops early. */
  passivate(now = this.clock()): void {
    for (const actor of [...this.residents.values()]) {
      if (now - actor.lastActive < this.limits.idleMs) break;
      if (actor.mailbox.depth === 0) this.evict(actor, 'idle');
    }
  }
}

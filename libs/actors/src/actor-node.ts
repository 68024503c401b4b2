import type { Departure } from './departures';
import { Logger } from '@nestjs/common';
import { Bus, NoRespondersError } from '@app/bus';
import { currentRates } from '@app/metrics';
import type { SqlExecutor } from '@app/persistence';
import { pruneOldCommands } from './actor-command.store';
import { ActorHost, HostLimits } from './actor-host';
import { ActorKind, ActorProbe } from './actor.types';
import { ActorMetrics } from './actors.metrics';
import { LeaseRepository } from './lease.repository';
import { Membership } from './membership';
import { PgPresence } from './presence';
import { actorSubject } from './shard';
import { DEFAULT_LEASE_TIMINGS, LeaseTimings, ShardManager } from './shard-manager';
import { SnapshotWriter } from './snapshot-writer';

export const CLUSTER_STATUS_SUBJECT = 'cluster.control.status';
const SHARDS_RELEASED_SUBJECT = 'cluster.control.released';
/** Each node answers on its own subject: no responders there means its NATS connection is gone. */
const nodeSubject = (nodeId: string) => `cluster.node.${nodeId}`;
/** A node that does not answer its subject within this is not taken for gone (it may be paused). */
const NODE_PROBE_MS = 500;
/** Shards of a suspect asked about too (every one of them must have no responders). */
const SHARDS_PROBED = 3;
const CLEANUP_EVERY_MS = 10 * 60_000;

export interface NodeStatus {
  nodeId: string;
  draining: boolean;
  members: string[];
  shards: number[];
  residentActors: number;
  mailboxDepth: number;
  /** This process's rate meters (`monitorProbes`, `webhookAttempts`): per second over the last minute. */
  rates?: Record<string, number>;
  /** Nodes this one saw leave lately (an older node answers without). */
  departed?: Departure[];
}

export interface ActorNodeOptions {
  nodeId: string;
  bus: Bus;
  db: SqlExecutor;
  /** Where the leases are claimed and renewed (default `db`): a pool of its own keeps renewals off the app's queue. */
  leaseDb?: SqlExecutor;
  membership: Membership;
  limits: HostLimits;
  timings?: LeaseTimings;
  /** In a cluster: this node's presence lock, which lets the others tell it killed from paused. */
  presence?: PgPresence;
}

/** One actor node: membership, leases, the host and its group-committing writer, wired together. */
export class ActorNode {
  private readonly logger = new Logger(ActorNode.name);
  readonly host: ActorHost;
  readonly shards: ShardManager;
  private readonly leases: LeaseRepository;
  private readonly unsubscribers: (() => void)[] = [];
  private readonly eventListeners: (() => void)[] = [];
  private readonly acquireListeners: (() => void)[] = [];
  private cleanup?: NodeJS.Timeout;
  private started = false;

  constructor(private readonly options: ActorNodeOptions) {
    const { nodeId, bus, db, membership } = options;
    const timings = options.timings ?? DEFAULT_LEASE_TIMINGS;
    const metrics = ActorMetrics.get();
    const writer = new SnapshotWriter(
      db,
      nodeId,
      (shard) => this.shards.dropShards([shard], 'write fenced'),
      () => this.eventListeners.forEach((listener) => listener()),
    );
    this.host = new ActorHost(nodeId, bus, db, writer, metrics, options.limits);
    metrics.bindHost(this.host);
    metrics.bindMembers(() => membership.members().length);
    this.leases = new LeaseRepository(options.leaseDb ?? db, timings.ttlMs, options.presence);
    this.shards = new ShardManager(
      nodeId,
      this.leases,
      membership,
      {
        acquire: (shard) => {
          this.host.acquire(shard);
          this.acquireListeners.forEach((listener) => listener());
        },
        release: (shard) => this.host.release(shard),
        drop: (shard) => this.host.drop(shard),
      },
      timings,
      (shards, leaving) => bus.publish(SHARDS_RELEASED_SUBJECT, { nodeId, shards: shards.length, leaving }),
      options.presence ? { gone: (nodeIds) => this.goneFromNats(nodeIds) } : undefined,
    );
  }

  /**
   * Of `nodeIds`, those NATS no longer knows: no responders on the node's own subject, nor on a few
   * of the shards it holds (a node of an earlier release, during a rolling deploy, answers only
   * those). A late or missing answer is not proof: the node may be paused.
   */
  private async goneFromNats(nodeIds: string[]): Promise<string[]> {
    const gone = await Promise.all(nodeIds.map((id) => this.unknownToNats(id)));
    return nodeIds.filter((_, i) => gone[i]);
  }

  private async unknownToNats(nodeId: string): Promise<boolean> {
    const unanswered = (subject: string, payload: unknown) =>
      this.options.bus.request(subject, payload, NODE_PROBE_MS).then(
        () => false,
        (error: unknown) => error instanceof NoRespondersError,
      );
    if (!(await unanswered(nodeSubject(nodeId), {}))) return false;
    const held = await this.leases.someShardsOf(nodeId, SHARDS_PROBED);
    const probe: ActorProbe = { probe: `liveness of ${nodeId}` };
    const answers = await Promise.all(held.map((shard) => unanswered(actorSubject('liveness', shard), probe)));
    return answers.every(Boolean);
  }

  /** Called after each group commit that wrote outbox events on this node (the relay's wake-up). */
  onEventsWritten(listener: () => void): void {
    this.eventListeners.push(listener);
  }

  /** Called for each shard this node takes on (work due on it may be waiting: the monitor looks). */
  onShardAcquired(listener: () => void): void {
    this.acquireListeners.push(listener);
  }

  register(kind: ActorKind): void {
    this.host.register(kind);
  }

  async start(): Promise<void> {
    const { bus, membership, nodeId, presence } = this.options;
    // Present in PostgreSQL and on NATS before claiming anything: the others judge us by both.
    await presence?.start();
    this.unsubscribers.push(bus.serve(nodeSubject(nodeId), async () => ({ nodeId })));
    await membership.start();
    this.host.start(this.shards);
    this.unsubscribers.push(
      bus.subscribe(SHARDS_RELEASED_SUBJECT, (payload) => {
        const released = payload as { nodeId: string; leaving: boolean };
        if (released.nodeId === nodeId) return;
        if (released.leaving) membership.forget(released.nodeId, 'left');
        this.shards.reconcileSoon();
      }),
      bus.serve(CLUSTER_STATUS_SUBJECT, async () => this.status()),
      bus.onConnectionChange((connected) => {
        membership.connectionChanged?.(connected);
        if (connected) this.shards.reconnected();
        else this.shards.disconnected();
      }),
    );
    await this.shards.start();
    this.cleanup = setInterval(() => void this.pruneCommands(), CLEANUP_EVERY_MS).unref();
    this.started = true;
    this.logger.log(`Actor node ${nodeId} serving ${this.shards.ownedShards().length} shards`);
  }

  /** Hands every shard off and leaves the cluster (SIGTERM). */
  async drain(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    clearInterval(this.cleanup);
    await this.shards.drain();
    this.host.stop();
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    await this.options.presence?.close();
    this.logger.log(`Actor node ${this.options.nodeId} drained`);
  }

  /** One node prunes old command records: whichever serves shard 0. */
  private async pruneCommands(): Promise<void> {
    if (!this.shards.lease(0)) return;
    await pruneOldCommands(this.options.db).catch((err: unknown) =>
      this.logger.warn({ err }, 'Pruning commands failed'),
    );
  }

  status(): NodeStatus {
    return {
      nodeId: this.options.nodeId,
      draining: this.shards.isDraining(),
      members: this.options.membership.members().map((m) => m.id),
      shards: [...this.shards.ownedShards()],
      residentActors: this.host.residentCount,
      mailboxDepth: this.host.mailboxDepth(),
      rates: currentRates(),
      departed: this.options.membership.departures(),
    };
  }
}

import { Logger } from '@nestjs/common';
import type { KV, NatsConnection } from 'nats';
import { ActorMetrics } from './actors.metrics';
import { Departure, DepartureReason, Departures } from './departures';
import { membershipDelta } from './membership-delta';
import { Member, member } from './placement';

/** Which nodes are alive (liveness only: the leases decide ownership). */
export interface Membership {
  start(): Promise<void>;
  /** The live members, sorted by id; includes this node unless it is leaving. */
  members(): Member[];
  /** Called whenever the live set changes. */
  onChange(listener: () => void): void;
  /** Forgets a node at once: it announced that it is leaving (`left`), or it was found `killed`. */
  forget(nodeId: string, reason: DepartureReason): void;
  /** The nodes that left lately (an hour), newest first, with when and why. */
  departures(): Departure[];
  /** Announces this node's departure. */
  leave(): Promise<void>;
  /** The transport went away or came back (what we heard meanwhile is not news about the others). */
  connectionChanged?(connected: boolean): void;
}

/** One process: the only member is this node. */
export class StaticMembership implements Membership {
  private leaving = false;
  constructor(private readonly nodeId: string) {}
  async start(): Promise<void> {}
  members(): Member[] {
    return this.leaving ? [] : [member(this.nodeId)];
  }
  onChange(): void {}
  forget(): void {}
  departures(): Departure[] {
    return [];
  }
  async leave(): Promise<void> {
    this.leaving = true;
  }
}

export interface KvMembershipOptions {
  bucket: string;
  replicas: number;
  heartbeatMs: number;
  /** A member unheard of for this long is gone; also the bucket's TTL. */
  ttlMs: number;
}

export const DEFAULT_MEMBERSHIP: KvMembershipOptions = {
  bucket: 'cluster_members',
  replicas: 1,
  heartbeatMs: 2_000,
  ttlMs: 9_000,
};

/**
 * Membership in a JetStream KV bucket: every node puts its key every heartbeat and watches the
 * bucket. Expired keys raise no watch event on NATS 2.9, so liveness is judged from each entry's
 * server timestamp; a graceful leave deletes the key, which watchers see at once.
 */
export class KvMembership implements Membership {
  private readonly logger = new Logger(KvMembership.name);
  private readonly lastSeen = new Map<string, number>();
  /** Forgotten nodes: their heartbeats written before then (a fresh watch replays them) mean nothing. */
  private readonly forgottenAt = new Map<string, number>();
  private readonly listeners: (() => void)[] = [];
  private readonly departed = new Departures();
  private current: Member[] = [];
  private kv?: KV;
  private watcher?: { stop(): void };
  /** While disconnected: nobody's silence means anything, so nobody expires. */
  private disconnectedAt?: number;
  private heartbeat?: NodeJS.Timeout;
  private sweeper?: NodeJS.Timeout;
  private leaving = false;

  constructor(
    private readonly connection: NatsConnection,
    private readonly nodeId: string,
    private readonly options: KvMembershipOptions = DEFAULT_MEMBERSHIP,
  ) {}

  async start(): Promise<void> {
    this.kv = await this.connection
      .jetstream()
      .views.kv(this.options.bucket, { ttl: this.options.ttlMs, history: 1, replicas: this.options.replicas });
    await this.beat();
    await this.watch();
    this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs).unref();
    this.sweeper = setInterval(() => this.recompute(), 500).unref();
    this.recompute();
  }

  members(): Member[] {
    return this.current;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  forget(nodeId: string, reason: DepartureReason): void {
    if (nodeId === this.nodeId) return;
    this.departed.heardOf(nodeId, reason);
    this.forgottenAt.set(nodeId, Date.now());
    this.lastSeen.delete(nodeId);
    this.recompute();
  }

  connectionChanged(connected: boolean): void {
    if (!connected) {
      this.disconnectedAt ??= Date.now();
      return;
    }
    if (this.disconnectedAt === undefined || this.leaving) return;
    // Everyone was as silent as we were deaf: their last sighting moves on by the outage.
    const outage = Date.now() - this.disconnectedAt;
    this.disconnectedAt = undefined;
    for (const [id, seen] of this.lastSeen) this.lastSeen.set(id, seen + outage);
    // The server may have restarted: the watch's consumer may be gone, so start a fresh one.
    void this.rewatch();
  }

  /** JetStream may still be recovering its store right after a restart: keep trying a while. */
  private async rewatch(): Promise<void> {
    for (let attempt = 1; !this.leaving && this.disconnectedAt === undefined; attempt++) {
      try {
        await this.beat();
        await this.watch();
        return;
      } catch (err) {
        if (attempt % 10 === 1) this.logger.warn({ err }, 'Watching the members again failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * attempt)));
      }
    }
  }

  async leave(): Promise<void> {
    this.leaving = true;
    this.watcher?.stop();
    clearInterval(this.heartbeat);
    clearInterval(this.sweeper);
    this.recompute();
    await this.kv?.delete(this.nodeId).catch(() => undefined);
  }

  private async watch(): Promise<void> {
    if (!this.kv || this.leaving) return;
    this.watcher?.stop();
    const watch = await this.kv.watch({ key: '>' });
    this.watcher = watch;
    void (async () => {
      for await (const entry of watch) {
        // A fresh watch replays every key with its write time: never move a sighting backwards.
        const seen = Math.max(entry.created.getTime(), this.lastSeen.get(entry.key) ?? 0);
        if (seen <= (this.forgottenAt.get(entry.key) ?? 0)) continue;
        if (entry.operation === 'PUT') this.lastSeen.set(entry.key, seen);
        else {
          // A deleted key is a graceful leave (an expired one raises no event).
          this.departed.heardOf(entry.key, 'left');
          this.lastSeen.delete(entry.key);
        }
        this.recompute();
      }
    })();
  }

  private async beat(): Promise<void> {
    if (this.leaving || !this.kv) return;
    try {
      await this.kv.put(this.nodeId, JSON.stringify({ nodeId: this.nodeId, at: Date.now() }));
      this.lastSeen.set(this.nodeId, Date.now());
    } catch (err) {
      this.logger.warn({ err }, 'Membership heartbeat failed');
    }
  }

  departures(): Departure[] {
    return this.departed.recent(Date.now());
  }

  /** For the flapping alert: this node's own start counts as a join too (a node restarting over and over flaps). */
  private countChanges(before: string[], after: string[]): void {
    const { joined, left } = membershipDelta(before, after);
    joined.forEach((id) => this.departed.rejoined(id));
    left.filter((id) => id !== this.nodeId).forEach((id) => this.departed.departed(id, Date.now()));
    const changes = ActorMetrics.get().membershipChanges;
    joined.forEach((id) => changes.inc({ member: id, change: 'joined' }));
    left.forEach((id) => changes.inc({ member: id, change: 'left' }));
  }

  private recompute(): void {
    if (this.disconnectedAt !== undefined) return;
    const now = Date.now();
    const alive = [...this.lastSeen]
      .filter(([id, seen]) => now - seen < this.options.ttlMs && !(this.leaving && id === this.nodeId))
      .map(([id]) => id)
      .sort();
    const before = this.current.map((m) => m.id);
    if (alive.join(',') === before.join(',')) return;
    this.countChanges(before, alive);
    this.current = alive.map(member);
    this.logger.log(`Cluster members: ${alive.join(', ') || '(none)'}`);
    this.listeners.forEach((listener) => listener());
  }
}

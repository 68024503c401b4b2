import { Logger } from '@nestjs/common';
import { ActorMetrics } from './actors.metrics';
import { Lease, LeaseRepository, TakeOver } from './lease.repository';
import { Membership } from './membership';
import { ownerOf } from './placement';
import { SHARD_COUNT } from './shard';

/** What the manager tells the host: serve a shard, hand it off gracefully, or drop it at once. */
export interface ShardListener {
  acquire(shard: number, epoch: number): void;
  release(shard: number): Promise<void>;
  drop(shard: number): void;
}

export interface LeaseTimings {
  ttlMs: number;
  renewEveryMs: number;
  /** Stop serving this long before the lease could expire, measured from before the renewal was sent. */
  safetyMs: number;
  reconcileEveryMs: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = {
  ttlMs: 10_000,
  renewEveryMs: 3_000,
  safetyMs: 2_000,
  reconcileEveryMs: 1_000,
};

/** Which of these nodes are gone from NATS (their node subject has no responders): see ActorNode. */
export interface NodeLiveness {
  gone(nodeIds: string[]): Promise<string[]>;
}

/** After a failed renewal, try again this soon (the database may be back any moment). */
const RENEW_RETRY_MS = 250;

interface HeldLease extends Lease {
  /** Local time after which this node must not serve the shard. */
  deadline: number;
}

/**
 * Keeps this node's leases in line with rendezvous placement over the live members: claims the
 * shards placed here, hands off the ones placed elsewhere, renews the rest, and stops serving any
 * shard whose lease it cannot prove it still holds.
 */
export class ShardManager {
  private readonly logger = new Logger(ShardManager.name);
  private readonly held = new Map<number, HeldLease>();
  private readonly timers: NodeJS.Timeout[] = [];
  private reconciling?: Promise<void>;
  private again = false;
  private draining = false;
  /** Gave every shard back (cut off from the bus too long): nothing is served or claimed. */
  private paused = false;
  /** When the bus went away, while it is away: placement is frozen, leases are still renewed. */
  private cutOffSince?: number;
  private renewing = false;
  private renewRetry?: NodeJS.Timeout;
  /** No held lease's deadline is earlier than this (a lower bound; see expireOverdue). */
  private earliestDeadline = -Infinity;
  /**
   * The held leases as a list and the owned shards sorted, built once per change of `held`: a
   * renewal every 3 s and every background pass read them, and 4096 of them are worth not copying.
   */
  private heldList?: HeldLease[];
  private ownedSorted?: number[];
  /**
   * The last renewal that renewed every held lease, while `held` is still that list: one deadline for
   * all of them instead of 4096 writes every 3 s (deadlineOf). Written into the leases when `held` changes.
   */
  private listRenewal?: { list: HeldLease[]; deadline: number };
  /**
   * Since the bus came back: nothing is served until a renewal sent after that proves the leases
   * are still ours (a node gone from NATS and PostgreSQL at once may have been taken over meanwhile).
   */
  private unconfirmedSince?: number;

  constructor(
    readonly nodeId: string,
    private readonly leases: LeaseRepository,
    private readonly membership: Membership,
    private readonly listener: ShardListener,
    private readonly timings: LeaseTimings = DEFAULT_LEASE_TIMINGS,
    private readonly announceRelease: (shards: number[], leaving: boolean) => void = () => undefined,
    /** In a cluster: how a node killed is told from one only paused, so its leases are taken early. */
    private readonly liveness?: NodeLiveness,
  ) {}

  async start(): Promise<void> {
    this.membership.onChange(() => this.reconcileSoon());
    await this.reconcile();
    this.timers.push(
      setInterval(() => this.reconcileSoon(), this.timings.reconcileEveryMs).unref(),
      setInterval(() => void this.renew(), this.timings.renewEveryMs).unref(),
      setInterval(() => this.expireOverdue(), Math.min(500, this.timings.safetyMs / 2)).unref(),
    );
  }

  /**
   * The bus is gone. Keep serving: the leases in PostgreSQL say who owns what, and a renewal
   * still proves ownership, so the actors (and their warm state) survive a blip. But cut off for
   * longer than a lease, this node gives every shard back so reachable nodes can take them.
   */
  disconnected(now = Date.now()): void {
    this.cutOffSince ??= now;
  }

  /** The bus is back: serve on once a renewal confirms the leases, or claim again after having given the shards back. */
  reconnected(now = Date.now()): void {
    this.cutOffSince = undefined;
    this.paused = false;
    if (this.held.size) {
      this.unconfirmedSince = now;
      void this.renew();
    }
    this.reconcileSoon();
  }

  /** The lease if this node may serve the shard right now. */
  lease(shard: number, now = Date.now()): Lease | undefined {
    const lease = this.held.get(shard);
    if (!lease || this.paused || this.unconfirmedSince !== undefined) return undefined;
    if (this.deadlineOf(lease) <= now) {
      this.dropShards([shard], 'lease deadline passed');
      return undefined;
    }
    return lease;
  }

  /** The shards this node holds, ascending (the same array until they change: do not modify it). */
  ownedShards(): readonly number[] {
    return (this.ownedSorted ??= [...this.held.keys()].sort((a, b) => a - b));
  }

  private deadlineOf(lease: HeldLease): number {
    const renewal = this.listRenewal;
    return renewal && renewal.list === this.heldList ? Math.max(lease.deadline, renewal.deadline) : lease.deadline;
  }

  /** After any change of `held`: the list renewal's deadline moves into the leases it covered. */
  private heldChanged(): void {
    const renewal = this.listRenewal;
    if (renewal && renewal.list === this.heldList)
      for (const lease of renewal.list) lease.deadline = Math.max(lease.deadline, renewal.deadline);
    this.listRenewal = undefined;
    this.heldList = undefined;
    this.ownedSorted = undefined;
  }

  isDraining(): boolean {
    return this.draining;
  }

  /** Another node handed shards off: try to take ours now rather than at the next tick. */
  reconcileSoon(): void {
    if (this.reconciling) {
      this.again = true;
      return;
    }
    this.reconciling = this.reconcile()
      .catch((err: unknown) => this.logger.warn({ err }, 'Reconcile failed'))
      .finally(() => {
        this.reconciling = undefined;
        if (this.again) {
          this.again = false;
          this.reconcileSoon();
        }
      });
  }

  /** Cut off too long: stop serving and give every shard back, so reachable nodes take them. */
  async suspend(why: string): Promise<void> {
    if (this.paused) return;
    this.paused = true;
    // A claim already on its way would otherwise land after the release below.
    await this.reconciling;
    const shards = [...this.ownedShards()];
    this.dropShards(shards, why);
    await this.leases.release(this.nodeId, shards).catch(() => undefined);
    this.announceRelease(shards, false);
  }

  isCutOff(): boolean {
    return this.cutOffSince !== undefined;
  }

  /** SIGTERM: leave the cluster, hand off every shard, stop. */
  async drain(): Promise<void> {
    this.draining = true;
    this.timers.forEach(clearInterval);
    clearTimeout(this.renewRetry);
    await this.reconciling;
    await this.membership.leave();
    await this.handOff([...this.ownedShards()], true);
  }

  private async reconcile(): Promise<void> {
    // Cut off, the member list is stale: neither claim nor hand off on it.
    if (this.draining || this.paused || this.cutOffSince !== undefined) return;
    const gone = await this.goneOwners();
    gone.forEach((nodeId) => this.membership.forget(nodeId, 'killed'));
    const members = this.membership.members();
    const toClaim: number[] = [];
    const toRelease: number[] = [];
    for (let shard = 0; shard < SHARD_COUNT; shard++) {
      const mine = ownerOf(shard, members) === this.nodeId;
      if (mine && !this.held.has(shard)) toClaim.push(shard);
      if (!mine && this.held.has(shard) && members.length > 0) toRelease.push(shard);
    }
    if (toRelease.length) await this.handOff(toRelease, false);
    if (toClaim.length) await this.claim(toClaim, gone);
  }

  /**
   * Owners of live leases gone from both PostgreSQL (no session holds their presence lock) and NATS
   * (nobody answers on their node subject): killed, as a paused node is neither. Looked up on every
   * reconcile (each second), so a killed node's shards are taken over within about a second rather
   * than when its leases run out; the claim checks both again under the lock (LeaseRepository.claim).
   */
  private async goneOwners(): Promise<string[]> {
    if (!this.liveness) return [];
    // PostgreSQL away: nobody is taken over, and the renewals already say why.
    const silent = await this.leases.ownersWithoutPresence(this.nodeId).catch(() => []);
    if (!silent.length) return [];
    const gone = await this.liveness.gone(silent);
    if (gone.length)
      this.logger.warn(`Nodes gone from PostgreSQL and NATS: ${gone.join(', ')}; taking over their shards`);
    return gone;
  }

  private async claim(shards: number[], gone: string[]): Promise<void> {
    const sentAt = Date.now();
    const liveness = this.liveness;
    const takeOver: TakeOver | undefined =
      gone.length && liveness ? { owners: gone, stillGone: (owners) => liveness.gone(owners) } : undefined;
    const claimed = await this.leases.claim(this.nodeId, shards, takeOver);
    if (this.paused || this.draining) {
      // Suspended or draining while the claim ran: give the shards straight back.
      await this.leases.release(
        this.nodeId,
        claimed.map((l) => l.shard),
      );
      return;
    }
    const deadline = sentAt + this.timings.ttlMs - this.timings.safetyMs;
    this.earliestDeadline = Math.min(this.earliestDeadline, deadline);
    for (const lease of claimed) this.held.set(lease.shard, { ...lease, deadline });
    if (claimed.length) this.heldChanged();
    for (const lease of claimed) this.listener.acquire(lease.shard, lease.epoch);
    if (claimed.length) this.logger.log(`Claimed ${claimed.length} shards (${this.held.size} owned)`);
  }

  private async handOff(shards: number[], leaving: boolean): Promise<void> {
    await Promise.all(shards.map((shard) => this.listener.release(shard)));
    shards.forEach((shard) => this.held.delete(shard));
    this.heldChanged();
    await this.leases.release(this.nodeId, shards);
    this.announceRelease(shards, leaving);
    if (shards.length) this.logger.log(`Handed off ${shards.length} shards (${this.held.size} owned)`);
  }

  private async renew(): Promise<void> {
    if (!this.held.size) this.unconfirmedSince = undefined;
    if (this.draining || this.paused || this.renewing || !this.held.size) return;
    this.renewing = true;
    const sentAt = Date.now();
    const leases = (this.heldList ??= [...this.held.values()]);
    let notRenewed: number[];
    try {
      notRenewed = await this.leases.renew(this.nodeId, leases);
    } catch (err) {
      this.logger.warn({ err }, 'Lease renewal failed; retrying soon, shards stop at their deadlines');
      // PostgreSQL may be restarting: renew as soon as it is back, not at the next regular tick.
      clearTimeout(this.renewRetry);
      this.renewRetry = setTimeout(() => void this.renew(), RENEW_RETRY_MS);
      return;
    } finally {
      this.renewing = false;
    }
    const took = Date.now() - sentAt;
    ActorMetrics.get().leaseRenewalSeconds.observe(took / 1000);
    if (this.unconfirmedSince !== undefined) {
      // Sent after the bus came back: what it renewed is ours. Sent before: ask again at once.
      if (sentAt >= this.unconfirmedSince) this.unconfirmedSince = undefined;
      else setTimeout(() => void this.renew(), 0);
    }
    // Past ttl - safety the leases stop being served: a slow renewal is the warning before that.
    if (took > this.timings.renewEveryMs)
      this.logger.warn(
        `Renewing ${leases.length} leases took ${took} ms (shards stop ${this.timings.ttlMs - this.timings.safetyMs} ms after sending): the database or this node's connection pool is slow`,
      );
    const deadline = sentAt + this.timings.ttlMs - this.timings.safetyMs;
    if (!notRenewed.length && leases === this.heldList) {
      // Every lease renewed and none claimed or dropped meanwhile (the usual case): one deadline for all.
      this.listRenewal = { list: leases, deadline };
      this.earliestDeadline = deadline;
      return;
    }
    const missing = new Set(notRenewed);
    const lost: number[] = [];
    for (const lease of leases) {
      const current = this.held.get(lease.shard);
      if (!current || current.epoch !== lease.epoch) continue;
      if (missing.has(lease.shard)) lost.push(lease.shard);
      else current.deadline = Math.max(current.deadline, deadline);
    }
    if (lost.length) this.dropShards(lost, 'lease lost');
  }

  /**
   * Runs twice a second: looks at the held leases only once the earliest deadline can have passed
   * (renewals only push deadlines later, so the bound stays safe until the next scan recomputes it).
   */
  private expireOverdue(): void {
    const now = Date.now();
    if (this.cutOffSince !== undefined && now - this.cutOffSince >= this.timings.ttlMs && !this.paused) {
      void this.suspend('cut off from NATS for longer than a lease');
      return;
    }
    if (now < this.earliestDeadline) return;
    let overdue: number[] | undefined;
    let earliest = Infinity;
    for (const lease of this.held.values()) {
      const deadline = this.deadlineOf(lease);
      if (deadline <= now) (overdue ??= []).push(lease.shard);
      else earliest = Math.min(earliest, deadline);
    }
    this.earliestDeadline = earliest;
    if (overdue) this.dropShards(overdue, 'lease deadline passed');
  }

  /** Stops serving at once, without touching the database (which may be why we are here). */
  dropShards(shards: number[], why: string): void {
    const dropped = shards.filter((shard) => this.held.delete(shard));
    if (dropped.length) this.heldChanged();
    dropped.forEach((shard) => this.listener.drop(shard));
    if (dropped.length) this.logger.warn(`Dropped ${dropped.length} shards: ${why}`);
    // Claim back at once what placement still gives us (an expired lease is ours to renew by a claim).
    if (dropped.length) this.reconcileSoon();
  }
}

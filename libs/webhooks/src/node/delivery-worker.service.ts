import { ActorNode } from '@app/actors';
import { BackgroundLoop } from '@app/background';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CLOCK, Clock } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DeliveryAttempt } from './delivery-attempt';
import { ClaimedDelivery, claimDue, nextPendingDue, releaseClaims, renewClaims } from '../store/delivery.queries';
import { EndpointLanes } from './endpoint-lanes';
import { SerializedEvent } from '../model/envelope';
import { EventCache } from './event-cache';
import { OutcomeWriter } from '../store/outcome.writer';
import { DELIVERIES_DUE_SUBJECT } from '../model/wake';

/** Attempts running or waiting on this node, and per endpoint. */
export const MAX_IN_FLIGHT = 512;
export const PER_ENDPOINT = 8;
/** A claim is held this long unless renewed; a dead node's deliveries are due again after it. */
const LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;
/**
 * Retries come due on their own (30 s after a failure at the soonest), and a dead node's claims when
 * their lease ends: an idle worker sleeps until the earliest pending delivery is due, at least
 * POLL_MS (due rows of endpoints at their cap wait for a lane) and at most IDLE_MAX_MS (deliveries
 * another node's relay created and nobody announced). New deliveries wake the worker at once.
 */
const POLL_MS = 1_000;
const IDLE_MAX_MS = 15_000;
/** Notices of new deliveries from the bus (every relay batch of every node) join into one claim per this. */
const NOTICE_WITHIN_MS = 100;
const SHUTDOWN_GRACE_MS = 3_000;

type Ready = ClaimedDelivery & { event: SerializedEvent };

/**
 * Claims due deliveries (see claimDue) and runs them in per-endpoint lanes, writes the outcomes in
 * batches, and renews the leases of what it holds. Woken at once by this node's relay, and within
 * NOTICE_WITHIN_MS by any relay's or replay's notice on the bus.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly lanes = new EndpointLanes<Ready>(PER_ENDPOINT, (d) => this.deliver(d));
  private readonly writer: OutcomeWriter;
  private readonly events: EventCache;
  private readonly claims = new BackgroundLoop({
    everyMs: POLL_MS,
    run: () => this.claimAll(),
    logger: this.logger,
    failure: 'Claiming deliveries failed',
  });
  private readonly renewals = new BackgroundLoop({
    everyMs: RENEW_EVERY_MS,
    run: () => this.renew(),
    logger: this.logger,
    failure: 'Renewing delivery leases failed',
  });
  private unsubscribe?: () => void;
  /** The last claim found work: more may be due as soon as there is room. */
  private moreDue = false;
  private stopped = false;

  constructor(
    private readonly node: ActorNode,
    private readonly db: MikroSqlExecutor,
    private readonly bus: Bus,
    private readonly attempt: DeliveryAttempt,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.writer = new OutcomeWriter(db);
    this.events = new EventCache(db);
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.bus.subscribe(DELIVERIES_DUE_SUBJECT, () => this.claims.wakeWithin(NOTICE_WITHIN_MS));
    this.claims.start();
    this.renewals.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    const stopping = [this.claims.stop(), this.renewals.stop()];
    this.unsubscribe?.();
    await Promise.all(stopping);
    const waiting = this.lanes.takeWaiting();
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([this.lanes.whenIdle(), new Promise((r) => (grace = setTimeout(r, SHUTDOWN_GRACE_MS)))]);
    clearTimeout(grace);
    await this.writer.flushed();
    const left = [...waiting, ...this.lanes.items()].map((d) => d.id);
    await releaseClaims(this.db, left, this.config.nodeId, new Date(this.clock.now())).catch((err: unknown) =>
      this.logger.warn({ err }, 'Releasing delivery claims failed; they are due again when their leases end'),
    );
  }

  /** Claims now (coalesced with a claim already running). */
  wake(): void {
    void this.claims.wake();
  }

  /** Claims what is due, runs it and waits until every outcome is written (tests, benchmarks). */
  async runOnce(): Promise<void> {
    await this.claims.wake();
    await this.lanes.whenIdle();
    await this.writer.flushed();
  }

  /**
   * Claims batches while they come back full and there is room; then resolves with the wait until
   * the next pending delivery is due.
   */
  private async claimAll(): Promise<number | undefined> {
    while (!this.stopped && this.node.shards.ownedShards().length) {
      const room = MAX_IN_FLIGHT - this.lanes.size;
      if (room <= 0) return undefined;
      if ((await this.claimBatch(room)) < room) {
        const next = await nextPendingDue(this.db);
        const inMs = next ? next.getTime() - this.clock.now() : IDLE_MAX_MS;
        return Math.min(IDLE_MAX_MS, Math.max(POLL_MS, inMs));
      }
    }
    return undefined;
  }

  private async claimBatch(limit: number): Promise<number> {
    const now = new Date(this.clock.now());
    const claimed = await claimDue(this.db, {
      now,
      leaseUntil: new Date(now.getTime() + LEASE_MS),
      owner: this.config.nodeId,
      claimId: randomUUID(),
      limit,
      perEndpoint: PER_ENDPOINT,
      exclude: this.lanes.saturated(),
    });
    const events = await this.events.get(claimed.map((d) => d.eventId));
    for (const d of claimed) {
      const event = events.get(d.eventId);
      if (event) this.lanes.add({ ...d, event });
    }
    this.moreDue = claimed.length > 0;
    return claimed.length;
  }

  private async deliver(d: Ready): Promise<void> {
    this.writer.submit(await this.attempt.run(d, d.event));
    if (this.moreDue && this.lanes.size <= MAX_IN_FLIGHT * 0.75) this.wake();
  }

  private async renew(): Promise<void> {
    const claimIds = [...new Set(this.lanes.items().map((d) => d.claimId))];
    const leaseUntil = new Date(this.clock.now() + LEASE_MS);
    await renewClaims(this.db, claimIds, leaseUntil);
  }
}

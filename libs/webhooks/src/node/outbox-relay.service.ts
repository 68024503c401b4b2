import { Bus } from '@app/bus';
import { ActorNode } from '@app/actors';
import { BackgroundLoop } from '@app/background';
import { CLOCK, Clock } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker.service';
import { buildEnvelope, unixSeconds } from '../model/envelope';
import { EventStream } from './event-stream';
import { receivesEvent } from '../model/event-types';
import { Backlog, NewDelivery, claimUnrelayed, insertDeliveries, lookAfterMark } from '../store/relay.queries';
import { WebhookMetrics } from './webhooks.metrics';
import { DELIVERIES_DUE_SUBJECT, OUTBOX_QUEUED_SUBJECT } from '../model/wake';

const BATCH = 500;
/**
 * This node's actors wake the relay when they commit outbox events (ActorNode.onEventsWritten), and
 * an api that queues an event (a test event) wakes every relay over the bus, so polling (one indexed
 * `limit 1` look) only catches what no wake-up announced: a batch another node's relay gave up when
 * it died, a lost bus message, rows written by hand (the webhook tests insert events so). Every 5 s:
 * an idle node's background is mostly such looks (BENCHMARKS.md, cluster.idle).
 */
const POLL_MS = 5_000;
const ERROR_BACKOFF_MS = 1_000;
/**
 * Events held back behind a transaction still running (or behind another node's relay, which holds
 * the watermark) are looked at again every few milliseconds for the first second (what holds them
 * is mostly a short write: a lease renewal, a group commit; the look is one indexed read), then
 * four times a second: a write transaction open for minutes delays the events committed after it
 * began by as much.
 */
const HELD_RETRY_MS = 5;
const HELD_LONG_AFTER_MS = 1_000;
const HELD_LONG_RETRY_MS = 250;

/**
 * Moves outbox events on, each exactly once: in one transaction it takes the next events after the
 * relay's watermark whose transactions have ended (one relay at a time, on any node), publishes them
 * to JetStream (msgID = event id: a batch retried after a crash is deduplicated), creates one
 * delivery per matching enabled endpoint and moves the watermark past them (relay.queries.ts).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly metrics = WebhookMetrics.get();
  private unsubscribe?: () => void;
  private readonly passes = new BackgroundLoop({
    everyMs: POLL_MS,
    retryMs: ERROR_BACKOFF_MS,
    run: () => this.pass(),
    logger: this.logger,
    failure: 'Relaying outbox events failed; retrying',
  });

  constructor(
    private readonly node: ActorNode,
    private readonly db: MikroSqlExecutor,
    private readonly stream: EventStream,
    private readonly bus: Bus,
    private readonly worker: DeliveryWorker,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.stream.ensure().catch((err: unknown) => this.logger.warn({ err }, 'Creating the events stream failed'));
    this.node.onEventsWritten(() => this.wake());
    this.unsubscribe = this.bus.subscribe(OUTBOX_QUEUED_SUBJECT, () => this.wake());
    this.passes.start(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    await this.passes.stop();
  }

  /**
   * Relays one batch now; resolves with the number of events relayed and what is left waiting.
   * `announced`: events are known to be waiting (a wake-up said so), so the cheap look that spares
   * an idle poll a transaction is skipped.
   */
  async relayOnce(announced = false): Promise<{ events: number; left: Backlog }> {
    if (!announced) {
      const backlog = await lookAfterMark(this.db);
      if (backlog !== 'ready') return { events: 0, left: backlog };
    }
    const now = new Date(this.clock.now());
    const { events, deliveries, eventIds, held } = await this.db.transaction(async (tx) => {
      const claimed = await claimUnrelayed(tx, BATCH);
      const rows = claimed.events;
      if (!rows.length) return { events: 0, deliveries: 0, eventIds: [] as string[], held: claimed.held };
      await this.stream.publish(rows.map((row) => buildEnvelope(row, unixSeconds(now))));
      const created: NewDelivery[] = rows.flatMap((event) =>
        event.endpoints
          .filter((e) => receivesEvent(e, event))
          .map((e) => ({ eventId: event.id, endpointId: e.id, workspaceId: event.workspaceId, type: event.type })),
      );
      await insertDeliveries(tx, created, now);
      return { events: rows.length, deliveries: created.length, eventIds: rows.map((r) => r.id), held: claimed.held };
    });
    this.metrics.relayed.inc(events);
    if (events) this.logger.debug({ eventIds, deliveries }, `Relayed ${events} events`);
    if (deliveries) {
      this.worker.wake();
      // The other nodes' workers share the work (they sleep until their next known due time otherwise).
      this.bus.publish(DELIVERIES_DUE_SUBJECT, { count: deliveries });
    }
    return { events, left: events === BATCH ? 'ready' : held ? 'held' : 'none' };
  }

  /** Events were committed on this node: relay them now rather than at the next poll. */
  wake(): void {
    this.announced = true;
    void this.passes.wake();
  }

  /** Events were announced since the last pass began (a poll that finds none starts no transaction). */
  private announced = false;
  /** Since when events have been held back (epoch ms), while they are. */
  private heldSince?: number;

  /** One pass; true when more is ready at once, a wait when events are held back. */
  private async pass(): Promise<boolean | number> {
    const announced = this.announced;
    this.announced = false;
    // Only a member serving shards relays: a node cut off from NATS leaves the work to the others.
    if (!this.node.shards.ownedShards().length) return false;
    const { events, left } = await this.relayOnce(announced);
    if (left === 'held') {
      // The wait counts from the last pass that moved anything.
      if (events || this.heldSince === undefined) this.heldSince = Date.now();
      return Date.now() - this.heldSince < HELD_LONG_AFTER_MS ? HELD_RETRY_MS : HELD_LONG_RETRY_MS;
    }
    this.heldSince = undefined;
    return left === 'ready';
  }
}

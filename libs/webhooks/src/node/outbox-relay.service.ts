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
import { NewDelivery, anyUnrelayed, claimUnrelayed, insertDeliveries } from '../store/relay.queries';
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
 * Moves outbox events on, each exactly once: in one transaction it locks a batch of unrelayed rows
 * (`for update skip locked`, so relays on several nodes share the work), publishes them to
 * JetStream (msgID = event id: a batch retried after a crash is deduplicated), creates one delivery
 * per matching enabled endpoint and marks the rows relayed.
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
   * Relays one batch now; resolves with the number of events relayed. `announced`: events are known
   * to be waiting (a wake-up said so), so the cheap look that spares an idle poll a transaction is skipped.
   */
  async relayOnce(announced = false): Promise<number> {
    if (!announced && !(await anyUnrelayed(this.db))) return 0;
    const now = new Date(this.clock.now());
    const { events, deliveries, eventIds } = await this.db.transaction(async (tx) => {
      const rows = await claimUnrelayed(tx, BATCH);
      if (!rows.length) return { events: 0, deliveries: 0, eventIds: [] as string[] };
      await this.stream.publish(rows.map((row) => buildEnvelope(row, unixSeconds(now))));
      const created: NewDelivery[] = rows.flatMap((event) =>
        event.endpoints
          .filter((e) => receivesEvent(e, event))
          .map((e) => ({ eventId: event.id, endpointId: e.id, workspaceId: event.workspaceId, type: event.type })),
      );
      await insertDeliveries(tx, created, now);
      return { events: rows.length, deliveries: created.length, eventIds: rows.map((r) => r.id) };
    });
    this.metrics.relayed.inc(events);
    if (events) this.logger.debug({ eventIds, deliveries }, `Relayed ${events} events`);
    if (deliveries) {
      this.worker.wake();
      // The other nodes' workers share the work (they sleep until their next known due time otherwise).
      this.bus.publish(DELIVERIES_DUE_SUBJECT, { count: deliveries });
    }
    return events;
  }

  /** Events were committed on this node: relay them now rather than at the next poll. */
  wake(): void {
    this.announced = true;
    void this.passes.wake();
  }

  /** Events were announced since the last pass began (a poll that finds none starts no transaction). */
  private announced = false;

  /** One pass; true when it relayed a full batch, so more is likely waiting. */
  private async pass(): Promise<boolean> {
    const announced = this.announced;
    this.announced = false;
    // Only a member serving shards relays: a node cut off from NATS leaves the work to the others.
    if (!this.node.shards.ownedShards().length) return false;
    return (await this.relayOnce(announced)) === BATCH;
  }
}

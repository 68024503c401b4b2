import { ActorNode } from '@app/actors';
import { CLOCK, Clock } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker.service';
import { buildEnvelope, unixSeconds } from './envelope';
import { EventStream } from './event-stream';
import { receivesEvent } from './event-types';
import {
  NewDelivery,
  anyUnrelayed,
  claimUnrelayed,
  enabledEndpoints,
  insertDeliveries,
  markRelayed,
} from './relay.queries';
import { WebhookMetrics } from './webhooks.metrics';

const BATCH = 500;
/**
 * This node's actors wake the relay when they commit outbox events (ActorNode.onEventsWritten), so
 * polling (one indexed `limit 1` look) only catches what no wake-up announced: a batch another node's
 * relay gave up when it died, or rows written by anything but an actor (tests, manual repairs).
 */
const POLL_MS = 500;
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
  private timer?: NodeJS.Timeout;
  private current?: Promise<unknown>;
  /** A wake-up came while a pass ran: run another pass right after it. */
  private woken = false;
  private stopped = false;

  constructor(
    private readonly node: ActorNode,
    private readonly db: MikroSqlExecutor,
    private readonly stream: EventStream,
    private readonly worker: DeliveryWorker,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.stream.ensure().catch((err: unknown) => this.logger.warn({ err }, 'Creating the events stream failed'));
    this.node.onEventsWritten(() => this.wake());
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  /** Relays one batch now; resolves with the number of events relayed. */
  async relayOnce(): Promise<number> {
    if (!(await anyUnrelayed(this.db))) return 0;
    const now = new Date(this.clock.now());
    const { events, deliveries, eventIds } = await this.db.transaction(async (tx) => {
      const rows = await claimUnrelayed(tx, BATCH);
      if (!rows.length) return { events: 0, deliveries: 0, eventIds: [] as string[] };
      await this.stream.publish(rows.map((row) => buildEnvelope(row, unixSeconds(now))));
      const endpoints = await enabledEndpoints(tx, [...new Set(rows.map((r) => r.workspaceId))]);
      const created: NewDelivery[] = rows.flatMap((event) =>
        endpoints
          .filter((e) => e.workspaceId === event.workspaceId && receivesEvent(e, event))
          .map((e) => ({ eventId: event.id, endpointId: e.id, workspaceId: event.workspaceId, type: event.type })),
      );
      await insertDeliveries(tx, created, now);
      await markRelayed(
        tx,
        rows.map((r) => r.id),
      );
      return { events: rows.length, deliveries: created.length, eventIds: rows.map((r) => r.id) };
    });
    this.metrics.relayed.inc(events);
    if (events) this.logger.debug({ eventIds, deliveries }, `Relayed ${events} events`);
    if (deliveries) this.worker.wake();
    return events;
  }

  /** Events were committed on this node: relay them now rather than at the next poll. */
  wake(): void {
    if (this.current) this.woken = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (!this.stopped) this.timer = setTimeout(() => void this.pass(), ms);
  }

  private async pass(): Promise<void> {
    this.woken = false;
    let next = POLL_MS;
    try {
      // Only a member serving shards relays: a node cut off from NATS leaves the work to the others.
      if (this.node.shards.ownedShards().length) {
        const run = this.relayOnce();
        this.current = run;
        if ((await run) === BATCH || this.woken) next = 0;
      }
    } catch (err) {
      this.logger.warn({ err }, 'Relaying outbox events failed; retrying');
      next = ERROR_BACKOFF_MS;
    } finally {
      this.current = undefined;
    }
    this.schedule(next);
  }
}

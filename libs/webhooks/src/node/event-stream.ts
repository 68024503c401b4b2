import { Bus, NatsBus } from '@app/bus';
import { Logger } from '@nestjs/common';
import { nanos } from 'nats';
import { EventEnvelope } from '../model/envelope';

/** Internal subscribers read events from this stream; JetStream drops a re-published id within the window. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
const STREAM_MAX_AGE_MS = 7 * 24 * 3_600_000;

export const streamName = (prefix: string): string => (prefix ? `EVENTS_${prefix}` : 'EVENTS');
const base = (prefix: string) => (prefix ? `${prefix}.events` : 'events');
export const eventSubject = (prefix: string, workspaceId: string, type: string): string =>
  `${base(prefix)}.${workspaceId}.${type}`;
const streamSubject = (prefix: string): string => `${base(prefix)}.>`;

const encoder = new TextEncoder();

/**
 * The JetStream side of the relay: stream `EVENTS` (`EVENTS_<prefix>` under NATS_SUBJECT_PREFIX)
 * on `[<prefix>.]events.>`, created idempotently; each event published with msgID = event id.
 * On the in-process bus there is no JetStream and this does nothing.
 */
export class EventStream {
  private readonly logger = new Logger(EventStream.name);
  private ready?: Promise<void>;

  constructor(
    private readonly bus: Bus,
    private readonly replicas: number,
  ) {}

  get enabled(): boolean {
    return this.bus instanceof NatsBus;
  }

  /** Publishes every envelope and waits for each acknowledgement; a duplicate counts as published. */
  async publish(envelopes: EventEnvelope[]): Promise<void> {
    if (!(this.bus instanceof NatsBus) || !envelopes.length) return;
    const bus = this.bus;
    await this.streamReady(bus);
    await Promise.all(
      envelopes.map((e) =>
        bus.publishToStream(eventSubject(bus.prefix, e.workspaceId, e.type), encoder.encode(JSON.stringify(e)), {
          'Nats-Msg-Id': e.id,
        }),
      ),
    );
  }

  /** Creates the stream if it is missing (at start, so subscribers find it before the first event). */
  async ensure(): Promise<void> {
    if (this.bus instanceof NatsBus) await this.streamReady(this.bus);
  }

  private streamReady(bus: NatsBus): Promise<void> {
    this.ready ??= this.ensureStream(bus).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async ensureStream(bus: NatsBus): Promise<void> {
    const jsm = await bus.connection.jetstreamManager();
    const name = streamName(bus.prefix);
    const exists = () =>
      jsm.streams.info(name).then(
        () => true,
        () => false,
      );
    if (!(await exists())) {
      await jsm.streams
        .add({
          name,
          subjects: [streamSubject(bus.prefix)],
          num_replicas: this.replicas,
          duplicate_window: nanos(DUPLICATE_WINDOW_MS),
          max_age: nanos(STREAM_MAX_AGE_MS),
        })
        // Another node may have created it a moment ago.
        .catch(async (error: unknown) => {
          if (!(await exists())) throw error;
        });
      this.logger.log(`JetStream stream ${name} ready`);
    }
  }
}

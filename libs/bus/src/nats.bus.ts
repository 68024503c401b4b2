import { Logger } from '@nestjs/common';
import { ErrorCode, Events, Msg, MsgHdrs, NatsConnection, NatsError, RequestStrategy, connect, headers } from 'nats';
import { Bus, BusHandler, BusResponder, NO_REPLY, NoRespondersError, RequestTimeoutError } from './bus';
import { ReplyMux } from './reply-mux';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (payload: unknown) => encoder.encode(JSON.stringify(payload ?? null));

/**
 * A request still waiting when the connection comes back is given this long for its answer, then
 * reported as timed out so the caller retries at once (same command id, applied once) instead of
 * waiting out its whole attempt: a request or reply lost in the outage would never be answered.
 */
const ANSWER_GRACE_AFTER_RECONNECT_MS = 300;
/** How long a JetStream API answer (a stream's acknowledgement, a direct get) is awaited (nats.js's default). */
const JETSTREAM_TIMEOUT_MS = 5_000;

/** What a request through the reply mux fails with: the bus's own errors, naming the subject. */
const requestErrors = (subject: string) => ({
  timeout: () => new RequestTimeoutError(subject),
  noResponders: () => new NoRespondersError(subject),
});

/** The bus over a NATS connection; JSON payloads. */
export class NatsBus extends Bus {
  private readonly logger = new Logger(NatsBus.name);
  private connected = true;
  private readonly listeners = new Set<(connected: boolean) => void>();
  /** Requests in flight, each told when the connection comes back. */
  private readonly waiting = new Set<() => void>();
  private readonly replies: ReplyMux;

  private constructor(
    readonly connection: NatsConnection,
    /** Namespaces every subject (`<prefix>.actors...`) so several deployments can share a NATS. */
    readonly prefix: string,
  ) {
    super();
    this.replies = new ReplyMux(connection);
    void this.watchStatus();
  }

  static async connect(servers: string[], name: string, prefix = ''): Promise<NatsBus> {
    const connection = await connect({
      servers,
      name,
      maxReconnectAttempts: -1,
      // Back within a fraction of a second of the server: the nodes keep their shards through a blip.
      reconnectTimeWait: 250,
      reconnectJitter: 100,
      pingInterval: 5_000,
      maxPingOut: 2,
      // No caller stack captured per request (an Error or two each, formatted eagerly in places):
      // our callers tell errors by their code. Commands through ActorClient +35-65% per second.
      noAsyncTraces: true,
    });
    return new NatsBus(connection, prefix);
  }

  publish(subject: string, payload: unknown): void {
    this.connection.publish(this.full(subject), encode(payload));
  }

  subscribe(subject: string, handler: BusHandler): () => void {
    const sub = this.connection.subscribe(this.full(subject), {
      callback: (err, msg) => {
        if (err) return this.logger.error({ err, subject }, 'Subscription failed');
        const payload = this.decode(msg);
        if (payload === NO_REPLY) return;
        Promise.resolve(handler(payload, this.local(msg.subject))).catch((error: unknown) =>
          this.logger.error({ err: error, subject: msg.subject }, 'Bus handler failed'),
        );
      },
    });
    return () => sub.unsubscribe();
  }

  async request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const answer = this.replies.request(this.full(subject), encode(payload), timeoutMs, requestErrors(subject));
    let grace: NodeJS.Timeout | undefined;
    let onReconnect!: () => void;
    const lostInOutage = new Promise<never>((_, reject) => {
      onReconnect = () => {
        grace ??= setTimeout(() => reject(new RequestTimeoutError(subject, true)), ANSWER_GRACE_AFTER_RECONNECT_MS);
      };
    });
    this.waiting.add(onReconnect);
    try {
      const msg = await Promise.race([answer, lostInOutage]);
      return JSON.parse(decoder.decode(msg.data)) as unknown;
    } catch (error) {
      // Abandoned after the reconnect grace: its own timeout must not surface later.
      if (error instanceof RequestTimeoutError) answer.catch(() => undefined);
      throw error;
    } finally {
      this.waiting.delete(onReconnect);
      clearTimeout(grace);
    }
  }

  /**
   * Publishes to a subject a JetStream stream captures (`subject` as is: no prefix added) and waits
   * for the stream's acknowledgement, as nats.js's `js.publish` does, but through the reply mux
   * (nats.js's builds an error object per publish). `msgHeaders`: `Nats-Msg-Id` for deduplication
   * (a message id the stream saw within its duplicate window is acknowledged and stored once),
   * `KV-Operation` for a key-value delete.
   */
  async publishToStream(subject: string, data: Uint8Array, msgHeaders: Record<string, string> = {}): Promise<void> {
    const msg = await this.rawRequest(subject, data, msgHeaders);
    const ack = JSON.parse(decoder.decode(msg.data)) as { error?: { code?: number; description?: string } };
    if (ack.error) throw new Error(`JetStream refused ${subject}: ${ack.error.description} (${ack.error.code})`);
  }

  /**
   * A request to a JetStream API subject (as is: no prefix added), answered with the raw message:
   * its status and headers are the caller's to read (a direct get answers 404 for no message).
   */
  rawRequest(
    subject: string,
    data: Uint8Array,
    msgHeaders: Record<string, string> = {},
    timeoutMs = JETSTREAM_TIMEOUT_MS,
  ): Promise<Msg> {
    const entries = Object.entries(msgHeaders);
    let natsHeaders: MsgHdrs | undefined;
    if (entries.length) {
      natsHeaders = headers();
      for (const [name, value] of entries) natsHeaders.set(name, value);
    }
    return this.replies.request(subject, data, timeoutMs, requestErrors(subject), natsHeaders);
  }

  serve(subject: string, responder: BusResponder): () => void {
    const sub = this.connection.subscribe(this.full(subject), {
      callback: (err, msg) => {
        if (err) return this.logger.error({ err, subject }, 'Responder subscription failed');
        const payload = this.decode(msg);
        if (payload === NO_REPLY) return;
        responder(payload, this.local(msg.subject))
          .then((answer) => {
            if (answer !== NO_REPLY && msg.reply) msg.respond(encode(answer));
          })
          .catch((error: unknown) => this.logger.error({ err: error, subject: msg.subject }, 'Responder failed'));
      },
    });
    // drain, not unsubscribe: requests the server sent before it saw the UNSUB still reach the
    // responder (which answers or redirects them) instead of being dropped into a 5 s client timeout.
    return () => void sub.drain().catch(() => sub.unsubscribe());
  }

  async gather(subject: string, payload: unknown, waitMs: number): Promise<unknown[]> {
    const answers: unknown[] = [];
    try {
      const replies = await this.connection.requestMany(this.full(subject), encode(payload), {
        strategy: RequestStrategy.Timer,
        maxWait: waitMs,
      });
      for await (const msg of replies) {
        const answer = this.decode(msg);
        if (answer !== NO_REPLY) answers.push(answer);
      }
    } catch (error) {
      if ((error as NatsError).code !== (ErrorCode.NoResponders as string)) throw error;
    }
    return answers;
  }

  healthy(): boolean {
    return this.connected && !this.connection.isClosed();
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.replies.close(new Error('The bus was closed'));
    if (!this.connection.isClosed()) await this.connection.drain();
  }

  private full(subject: string): string {
    return this.prefix ? `${this.prefix}.${subject}` : subject;
  }

  private local(subject: string): string {
    return this.prefix ? subject.slice(this.prefix.length + 1) : subject;
  }

  private decode(msg: Msg): unknown {
    try {
      return JSON.parse(decoder.decode(msg.data)) as unknown;
    } catch {
      this.logger.warn({ subject: msg.subject }, 'Dropped a message that is not JSON');
      return NO_REPLY;
    }
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === Events.Disconnect) {
        this.connected = false;
        this.logger.warn('Disconnected from NATS');
        this.listeners.forEach((listener) => listener(false));
      } else if (status.type === Events.Reconnect) {
        this.connected = true;
        this.logger.log('Reconnected to NATS');
        this.waiting.forEach((onReconnect) => onReconnect());
        this.listeners.forEach((listener) => listener(true));
      }
    }
  }
}

import { Logger } from '@nestjs/common';
import { Events, NatsConnection, connect } from 'nats';
import { Bus, BusHandler } from './bus';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bus over a NATS connection; JSON payloads. */
export class NatsBus extends Bus {
  private readonly logger = new Logger(NatsBus.name);
  private connected = true;

  private constructor(readonly connection: NatsConnection) {
    super();
    void this.watchStatus();
  }

  static async connect(servers: string[], name: string): Promise<NatsBus> {
    const connection = await connect({
      servers,
      name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: 5_000,
      maxPingOut: 2,
    });
    return new NatsBus(connection);
  }

  publish(subject: string, payload: unknown): void {
    this.connection.publish(subject, encoder.encode(JSON.stringify(payload ?? null)));
  }

  subscribe(subject: string, handler: BusHandler): () => void {
    const sub = this.connection.subscribe(subject, {
      callback: (err, msg) => {
        if (err) {
          this.logger.error({ err, subject }, 'Subscription failed');
          return;
        }
        let payload: unknown;
        try {
          payload = JSON.parse(decoder.decode(msg.data));
        } catch {
          this.logger.warn({ subject: msg.subject }, 'Dropped a message that is not JSON');
          return;
        }
        Promise.resolve(handler(payload, msg.subject)).catch((error: unknown) =>
          this.logger.error({ err: error, subject: msg.subject }, 'Bus handler failed'),
        );
      },
    });
    return () => sub.unsubscribe();
  }

  healthy(): boolean {
    return this.connected && !this.connection.isClosed();
  }

  async close(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.drain();
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === Events.Disconnect) {
        this.connected = false;
        this.logger.warn('Disconnected from NATS');
      } else if (status.type === Events.Reconnect) {
        this.connected = true;
        this.logger.log('Reconnected to NATS');
      }
    }
  }
}

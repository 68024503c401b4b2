import { Logger } from '@nestjs/common';
import { Bus, BusHandler, subjectMatches } from './bus';

interface Subscription {
  pattern: string;
  handler: BusHandler;
}

/** The bus of a single process: delivery is asynchronous, like NATS, so callers never re-enter. */
export class InProcessBus extends Bus {
  private readonly logger = new Logger(InProcessBus.name);
  private subscriptions: Subscription[] = [];

  publish(subject: string, payload: unknown): void {
    // Copy through JSON so a receiver never shares objects with the sender (as over a wire).
    const copy: unknown = JSON.parse(JSON.stringify(payload ?? null));
    for (const sub of this.subscriptions) {
      if (!subjectMatches(sub.pattern, subject)) continue;
      setImmediate(() => {
        Promise.resolve(sub.handler(copy, subject)).catch((err: unknown) =>
          this.logger.error({ err, subject }, 'Bus handler failed'),
        );
      });
    }
  }

  subscribe(pattern: string, handler: BusHandler): () => void {
    const sub = { pattern, handler };
    this.subscriptions.push(sub);
    return () => {
      this.subscriptions = this.subscriptions.filter((s) => s !== sub);
    };
  }

  healthy(): boolean {
    return true;
  }

  async close(): Promise<void> {
    this.subscriptions = [];
  }
}

import { Logger } from '@nestjs/common';
import { Bus, BusHandler, BusResponder, NO_REPLY, NoRespondersError, RequestTimeoutError, subjectMatches } from './bus';

interface Subscription {
  pattern: string;
  handler: BusHandler;
}

interface Responder {
  pattern: string;
  responder: BusResponder;
}

/** Copies through JSON so a receiver never shares objects with the sender, as over a wire. */
const copy = (payload: unknown): unknown => JSON.parse(JSON.stringify(payload ?? null)) as unknown;

/** The bus of a single process: delivery is asynchronous, like NATS, so callers never re-enter. */
export class InProcessBus extends Bus {
  private readonly logger = new Logger(InProcessBus.name);
  private subscriptions: Subscription[] = [];
  private responders: Responder[] = [];

  publish(subject: string, payload: unknown): void {
    const data = copy(payload);
    for (const sub of this.subscriptions) {
      if (!subjectMatches(sub.pattern, subject)) continue;
      setImmediate(() => {
        Promise.resolve(sub.handler(data, subject)).catch((err: unknown) =>
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

  async request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const target = this.responders.find((r) => subjectMatches(r.pattern, subject));
    if (!target) throw new NoRespondersError(subject);
    const data = copy(payload);
    await new Promise((resolve) => setImmediate(resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RequestTimeoutError(subject)), timeoutMs);
    });
    try {
      const answer = await Promise.race([target.responder(data, subject), timeout]);
      if (answer === NO_REPLY) return await timeout;
      return copy(answer);
    } finally {
      clearTimeout(timer);
    }
  }

  serve(pattern: string, responder: BusResponder): () => void {
    const entry = { pattern, responder };
    this.responders.push(entry);
    return () => {
      this.responders = this.responders.filter((r) => r !== entry);
    };
  }

  async gather(subject: string, payload: unknown, waitMs: number): Promise<unknown[]> {
    const targets = this.responders.filter((r) => subjectMatches(r.pattern, subject));
    const answers = await Promise.all(
      targets.map((t) =>
        Promise.race([
          t.responder(copy(payload), subject).catch(() => NO_REPLY),
          new Promise((resolve) => setTimeout(() => resolve(NO_REPLY), waitMs)),
        ]),
      ),
    );
    return answers.filter((a) => a !== NO_REPLY).map(copy);
  }

  healthy(): boolean {
    return true;
  }

  onConnectionChange(): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {
    this.subscriptions = [];
    this.responders = [];
  }
}

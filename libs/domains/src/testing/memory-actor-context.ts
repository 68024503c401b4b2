import { ActorContext, ActorResponse, Decision, OutboxEvent } from '@app/actors';
import { DomainError } from '@app/kernel';

/**
 * One actor's context in memory, for unit specs: the host's part of a command (apply the decision,
 * keep its events) without a database or a lease. `at` is the clock.
 */
export class MemoryActorContext<S> implements ActorContext<S> {
  readonly shard = 0;
  readonly owner = 'test';
  readonly epoch = 1;
  state: S | undefined;
  readonly events: OutboxEvent[] = [];

  constructor(
    readonly kind: string,
    readonly id: string,
    public at: Date,
  ) {}

  now(): Date {
    return this.at;
  }

  async save(state: S, events: OutboxEvent[] = []): Promise<void> {
    this.state = state;
    this.events.push(...events);
  }

  /** Persists a handler's decision as the host does and answers what the host would put on the wire. */
  async commit<R>(decide: () => Promise<Decision<S, R>>): Promise<ActorResponse> {
    try {
      const decision = await decide();
      if (decision.state !== undefined) await this.save(decision.state, decision.events);
      decision.afterWrite?.();
      return { ok: true, reply: decision.reply };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
    }
  }
}

import { Logger } from '@nestjs/common';
import { sagaEvents } from '../model/purchase.decider';
import { SagaResult } from '../model/purchase-saga.types';
import { effectOf, recordRefused, transition } from '../model/purchase.saga';
import { PurchaseRecord } from '../model/purchase.record';
import { Ctx, PurchaseActorDeps, checkpoint, purchaseEnv } from './purchase-checkpoint';
import { PurchaseEffects, permanentFailure } from './purchase-effects';

/**
 * Runs the purchase saga: the effect its step names, then the pure transition with the outcome,
 * checkpointed with its outbox events before the next effect, until the saga ends or waits for a
 * provider (the step keeps why, for the 503 and for the next owner).
 */
export class PurchaseSagaDriver {
  private readonly logger = new Logger(PurchaseSagaDriver.name);

  constructor(
    private readonly deps: PurchaseActorDeps,
    private readonly effects: PurchaseEffects,
  ) {}

  /**
   * An outcome the database refuses for good (a data error, not an outage) ends the saga through
   * its compensation from the last recorded state (`recordRefused`) instead of failing every retry.
   */
  async drive(ctx: Ctx, start: PurchaseRecord): Promise<PurchaseRecord> {
    let record = start;
    for (let effect = effectOf(record.saga); effect; effect = effectOf(record.saga)) {
      const event = await this.effects.run(effect, record);
      this.deps.steps.reached(`after:${effect}`);
      let next = transition(record.saga, event);
      try {
        record = await this.record(ctx, record, next);
      } catch (error) {
        const reason = permanentFailure(error);
        if (!reason) throw error;
        this.logger.error({ purchaseId: record.id, effect, reason }, 'Purchase step cannot be recorded; compensating');
        next = recordRefused(record.saga, next.state, effect, reason);
        record = await this.record(ctx, record, next);
      }
      this.deps.steps.reached(next.state.step);
      if (next.retryLater) break;
    }
    return record;
  }

  /** A checkpoint of the saga's next state with its outbox events. */
  private record(ctx: Ctx, record: PurchaseRecord, next: SagaResult): Promise<PurchaseRecord> {
    const moved = { ...record, saga: next.state };
    return checkpoint(ctx, moved, sagaEvents(next.events, moved, purchaseEnv(ctx, this.deps)));
  }
}

import { Decision, ReplyOf } from '@app/actors';
import { DomainError } from '@app/kernel';
import { PurchaseProtocol } from '../model/purchase.protocol';
import { PurchaseRecord } from '../model/purchase.record';
import {
  RenewalRequest,
  autoRenewalDue,
  autoRetryAfter,
  decideRenewal,
  renewalAnswer,
  renewalEvents,
  unfinishedRenewal,
  withRenewalStep,
} from '../model/renewal.decider';
import { renewalEffect, renewalTransition } from '../model/renewal.saga';
import { Ctx, PurchaseActorDeps, checkpoint, purchaseEnv } from './purchase-checkpoint';
import { PurchaseEffects } from './purchase-effects';
import { PurchaseInputs } from './purchase-inputs';
import { RenewalEffects } from './renewal.runner';

type Result<K extends keyof PurchaseProtocol> = Decision<PurchaseRecord, ReplyOf<PurchaseProtocol, K>>;

/**
 * Runs renewals of a completed purchase, one at a time, each a small saga persisted step by step:
 * charge (`purchase:<id>:renew:<n>`), renew at the registrar, refund on a refusal. What to start and
 * what to answer is decided in model/renewal.decider.ts; this looks up the price first and runs the
 * steps' effects after.
 */
export class RenewalDriver {
  private readonly effects: RenewalEffects;

  constructor(
    private readonly deps: PurchaseActorDeps,
    purchaseEffects: PurchaseEffects,
    private readonly inputs: PurchaseInputs,
  ) {
    this.effects = new RenewalEffects(deps, purchaseEffects);
  }

  /** Finishes a renewal a crash or an outage left unfinished. */
  async resume(ctx: Ctx, record: PurchaseRecord): Promise<PurchaseRecord> {
    if (!unfinishedRenewal(record)) return record;
    return (await this.drive(ctx, record)).record;
  }

  async renew(ctx: Ctx, record: PurchaseRecord, request: RenewalRequest): Promise<Result<'renew'>> {
    const outcome = await this.inputs.decide((answers) =>
      decideRenewal(record, request, purchaseEnv(ctx, this.deps), answers),
    );
    if ('answered' in outcome) return renewalAnswer(record, outcome.answered, purchaseEnv(ctx, this.deps));
    const started = await checkpoint(ctx, outcome.start);
    this.deps.steps.reached('renewal:charging');
    const { record: after, paused } = await this.drive(ctx, started);
    const done = after.renewals[after.renewals.length - 1];
    const retryAt = autoRetryAfter(done, paused, ctx.now());
    if (retryAt) await checkpoint(ctx, { ...after, retryAt });
    return renewalAnswer(after, done, purchaseEnv(ctx, this.deps), paused);
  }

  /** The auto-renew job's command: renews one year if autoRenew is still on and expiry is near. */
  async autoRenew(ctx: Ctx, record: PurchaseRecord, renewDays: number): Promise<Result<'auto_renew'>> {
    if (!autoRenewalDue(record, renewDays, ctx.now())) return { reply: { skipped: true } };
    return this.renew(ctx, record, { years: 1, auto: true }).catch((error: unknown) => {
      if (error instanceof DomainError) return { reply: { skipped: true } };
      throw error;
    });
  }

  private async drive(ctx: Ctx, start: PurchaseRecord): Promise<{ record: PurchaseRecord; paused: boolean }> {
    let record = start;
    for (;;) {
      const renewal = record.renewals[record.renewals.length - 1];
      const effect = renewalEffect(renewal);
      if (!effect) return { record, paused: false };
      const event = await this.effects.run(effect, record, renewal);
      if (!event) return { record, paused: true };
      this.deps.steps.reached(`after:renewal:${effect}`);
      const next = renewalTransition(renewal, event);
      record = withRenewalStep(record, next);
      record = await checkpoint(ctx, record, renewalEvents(record, next, purchaseEnv(ctx, this.deps)));
      this.deps.steps.reached(`renewal:${next.step}`);
    }
  }
}

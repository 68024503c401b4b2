import { Decision, OutboxEvent, ReplyOf } from '@app/actors';
import { DomainError } from '@app/kernel';
import { priceWithFee } from '../model/purchase-pricing';
import { RENEWAL_DONE, RenewalState, renewalEffect, renewalTransition } from '../model/renewal.saga';
import { Ctx, PurchaseActorDeps, checkpoint } from './purchase-checkpoint';
import { PurchaseEffects } from './purchase-effects';
import { priceChanged, registrarFailure } from '../purchase-quote';
import { PurchaseProtocol } from '../model/purchase.protocol';
import { PurchaseRecord } from '../model/purchase.record';
import { currentExpiry, toPurchaseView, toRenewalView } from '../model/purchase.view';
import { RenewalEffects } from './renewal.runner';

type Result<K extends keyof PurchaseProtocol> = Decision<PurchaseRecord, ReplyOf<PurchaseProtocol, K>>;
/** After a failed automatic renewal the job tries again this much later (until the domain lapses). */
const AUTO_RETRY_MS = 24 * 3_600_000;

/**
 * Renewals of a completed purchase, one at a time, each a small saga persisted step by step:
 * charge (`purchase:<id>:renew:<n>`), renew at the registrar, refund on a refusal. Outcomes are
 * `domain_purchase.completed` / `domain_purchase.failed` events with `operation: "renewal"`.
 */
export class RenewalDriver {
  private readonly effects: RenewalEffects;

  constructor(
    private readonly deps: PurchaseActorDeps,
    purchaseEffects: PurchaseEffects,
  ) {
    this.effects = new RenewalEffects(deps, purchaseEffects);
  }

  /** Finishes a renewal a crash or an outage left unfinished. */
  async resume(ctx: Ctx, record: PurchaseRecord): Promise<PurchaseRecord> {
    const last = record.renewals[record.renewals.length - 1];
    if (!last || RENEWAL_DONE.includes(last.step)) return record;
    return (await this.drive(ctx, record)).record;
  }

  async renew(
    ctx: Ctx,
    record: PurchaseRecord,
    years: number,
    auto: boolean,
    requestKey?: string,
    maxTotalCents?: number,
  ): Promise<Result<'renew'>> {
    const same = requestKey ? record.renewals.find((r) => r.requestKey === requestKey) : undefined;
    if (same) return this.answer(record, same);
    const previousExpiresAt = currentExpiry(record);
    if (!previousExpiresAt) throw new DomainError('conflict', 'The purchase has no expiry to extend');
    const wholesale = await this.deps.registrar.renewalPrice(record.hostname, years).catch(registrarFailure);
    const price = priceWithFee(wholesale.wholesaleCents, this.deps.fees);
    // Above the price the caller confirmed: refused before anything is written or charged.
    if (maxTotalCents !== undefined && price.totalCents > maxTotalCents)
      throw priceChanged(price.totalCents, maxTotalCents);
    const renewal: RenewalState = {
      n: record.renewals.length + 1,
      years,
      wholesaleCents: price.wholesaleCents,
      feeCents: price.feeCents,
      totalCents: price.totalCents,
      auto,
      step: 'charging',
      previousExpiresAt,
      requestKey,
      createdAt: ctx.now().toISOString(),
    };
    const started = await checkpoint(ctx, { ...record, renewals: [...record.renewals, renewal] });
    this.deps.steps.reached('renewal:charging');
    const { record: after, paused } = await this.drive(ctx, started);
    const done = after.renewals[after.renewals.length - 1];
    if (auto && done.step !== 'renewed' && !paused) {
      const retryAt = new Date(ctx.now().getTime() + AUTO_RETRY_MS).toISOString();
      await checkpoint(ctx, { ...after, retryAt });
    }
    return this.answer(after, done, paused);
  }

  /** The auto-renew job's command: renews one year if autoRenew is still on and expiry is near. */
  async autoRenew(ctx: Ctx, record: PurchaseRecord, renewDays: number): Promise<Result<'auto_renew'>> {
    const expiry = currentExpiry(record);
    const now = ctx.now().getTime();
    const due = expiry !== undefined && Date.parse(expiry) - now <= renewDays * 86_400_000;
    const waiting = record.retryAt !== undefined && Date.parse(record.retryAt) > now;
    if (record.saga.status !== 'completed' || !record.autoRenew || !due || waiting) return { reply: { skipped: true } };
    return this.renew(ctx, record, 1, true).catch((error: unknown) => {
      if (error instanceof DomainError) return { reply: { skipped: true } };
      throw error;
    });
  }

  private async drive(ctx: Ctx, start: PurchaseRecord): Promise<{ record: PurchaseRecord; paused: boolean }> {
    let record = start;
    for (;;) {
      const index = record.renewals.length - 1;
      const renewal = record.renewals[index];
      const effect = renewalEffect(renewal);
      if (!effect) return { record, paused: false };
      const event = await this.effects.run(effect, record, renewal);
      if (!event) return { record, paused: true };
      this.deps.steps.reached(`after:renewal:${effect}`);
      const next = renewalTransition(renewal, event);
      const renewals = record.renewals.map((r, i) => (i === index ? next : r));
      record = { ...record, renewals, retryAt: next.step === 'renewed' ? undefined : record.retryAt };
      record = await checkpoint(ctx, record, this.events(record, next));
      this.deps.steps.reached(`renewal:${next.step}`);
    }
  }

  private events(record: PurchaseRecord, renewal: RenewalState): OutboxEvent[] {
    if (!RENEWAL_DONE.includes(renewal.step)) return [];
    const type = renewal.step === 'renewed' ? 'domain_purchase.completed' : 'domain_purchase.failed';
    // The renewal as the renew answer shows it, and why a failed one failed (charge ids stay inside).
    const shown = { ...toRenewalView(renewal), failure: renewal.failure ?? null };
    return [
      {
        type,
        workspaceId: record.workspaceId,
        data: {
          purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers),
          operation: 'renewal',
          renewal: shown,
        },
      },
    ];
  }

  private answer(record: PurchaseRecord, renewal: RenewalState, paused = false): Result<'renew'> {
    const details = {
      purchaseId: record.id,
      hostname: record.hostname,
      renewal: renewal.n,
      reason: renewal.failure?.reason,
    };
    if (renewal.step === 'renewed')
      return {
        reply: {
          purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers),
          renewal: toRenewalView(renewal),
        },
      };
    if (renewal.step === 'failed')
      throw new DomainError('billing_required', `The card was not charged: ${renewal.failure?.reason}`, details);
    if (renewal.step === 'refunded')
      throw new DomainError(
        'registrar_error',
        `The registrar refused the renewal (${renewal.failure?.reason}); the charge was refunded`,
        details,
      );
    throw new DomainError(
      'service_unavailable',
      `The renewal is pending (${renewal.step}${paused ? ', a provider is unavailable' : ''}); it is retried automatically`,
      details,
    );
  }
}

import { PaymentDeclinedError } from '@app/payments';
import { RegistrarRefusedError } from '@app/registrar';
import { Logger } from '@nestjs/common';
import { RenewalEffect, RenewalEvent, RenewalState } from '../model/renewal.saga';
import { PurchaseEffectDeps, PurchaseEffects } from './purchase-effects';
import { savedCard } from '../store/purchase-lookups.queries';
import { PurchaseRecord } from '../model/purchase.record';

/** A registrar expiry this much past the one before the renewal means the renewal already happened. */
const RENEWED_MARGIN_MS = 86_400_000;

/** Runs one renewal effect; undefined when the provider was unreachable (the step is retried later). */
export class RenewalEffects {
  private readonly logger = new Logger(RenewalEffects.name);

  constructor(
    private readonly deps: PurchaseEffectDeps,
    private readonly effects: PurchaseEffects,
  ) {}

  async run(effect: RenewalEffect, record: PurchaseRecord, renewal: RenewalState): Promise<RenewalEvent | undefined> {
    try {
      if (effect === 'charge') return await this.charge(record, renewal);
      if (effect === 'renew') return await this.renew(record, renewal);
      const refunded = await this.effects.refund(renewal.chargeId, `purchase:${record.id}:renew:${renewal.n}:refund`);
      return refunded.type === 'refunded' ? refunded : undefined;
    } catch (error) {
      this.logger.warn({ err: error, purchaseId: record.id, effect }, 'Renewal effect could not run; retried later');
      return undefined;
    }
  }

  private async charge(record: PurchaseRecord, renewal: RenewalState): Promise<RenewalEvent> {
    const card = await savedCard(this.deps.db, record.workspaceId);
    if (!card) return { type: 'charge_declined', reason: 'no_payment_method: the workspace has no saved card' };
    try {
      const charge = await this.deps.payments.charge({
        paymentMethod: card,
        amountCents: renewal.totalCents,
        currency: 'USD',
        idempotencyKey: `purchase:${record.id}:renew:${renewal.n}`,
        description: `Renewal of ${record.hostname} for ${renewal.years} year(s)`,
        metadata: { purchaseId: record.id, workspaceId: record.workspaceId, renewal: String(renewal.n) },
      });
      return { type: 'charged', chargeId: charge.chargeId };
    } catch (error) {
      if (error instanceof PaymentDeclinedError)
        return { type: 'charge_declined', reason: `${error.reason}: ${error.message}` };
      throw error;
    }
  }

  private async renew(record: PurchaseRecord, renewal: RenewalState): Promise<RenewalEvent> {
    // After a crash the registrar may have renewed already: its expiry says so.
    const held = await this.deps.registrar.findRegistration(record.hostname);
    if (held && new Date(held.expiresAt).getTime() > Date.parse(renewal.previousExpiresAt) + RENEWED_MARGIN_MS)
      return { type: 'renewed', expiresAt: new Date(held.expiresAt).toISOString() };
    try {
      const renewed = await this.deps.registrar.renew(record.hostname, renewal.years);
      return { type: 'renewed', expiresAt: new Date(renewed.expiresAt).toISOString() };
    } catch (error) {
      if (error instanceof RegistrarRefusedError) return { type: 'renewal_refused', reason: error.reason };
      throw error;
    }
  }
}

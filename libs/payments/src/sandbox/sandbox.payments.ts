import { SqlExecutor, randomBase62 } from '@app/persistence';
import { testCard } from '../test-cards';
import {
  CardSummary,
  Charge,
  ChargeRequest,
  DeclineReason,
  PaymentDeclinedError,
  Payments,
  RefundRefusedError,
  RefundRequest,
} from '../payments.port';
import { SandboxLedger } from './sandbox-ledger.repository';

/** Stripe's test payment methods that fail, with the message Stripe gives for each. */
const FAILING_TEST_CARDS: Readonly<Record<string, { reason: DeclineReason; message: string }>> = {
  pm_card_chargeDeclined: { reason: 'card_declined', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: {
    reason: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: { reason: 'card_declined', message: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: { reason: 'card_declined', message: "Your card's security code is incorrect." },
  pm_card_chargeDeclinedFraudulent: { reason: 'card_declined', message: 'Your card was declined.' },
  pm_card_chargeDeclinedLostCard: { reason: 'card_declined', message: 'Your card was declined.' },
  pm_card_chargeDeclinedStolenCard: { reason: 'card_declined', message: 'Your card was declined.' },
  pm_card_authenticationRequired: {
    reason: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
};

/**
 * Payments without credentials (DESIGN.md): the saved card is a Stripe test payment method id.
 * `pm_card_visa` (and any other `pm_` id) succeeds, the declining test cards decline; charges and refunds
 * are kept in PostgreSQL under their idempotency keys, so a replay answers the first result, like Stripe.
 */
export class SandboxPayments extends Payments {
  readonly name = 'sandbox';
  private readonly ledger: SandboxLedger;

  constructor(db: SqlExecutor) {
    super();
    this.ledger = new SandboxLedger(db);
  }

  /** Any `pm_` id is a card here (as charges treat it); the test cards are named as Stripe names them. */
  async card(paymentMethod: string): Promise<CardSummary> {
    if (!/^pm_\w+$/.test(paymentMethod)) {
      throw new PaymentDeclinedError('no_payment_method', `${paymentMethod} is not a payment method id (pm_...)`);
    }
    return testCard(paymentMethod);
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    if (!Number.isInteger(request.amountCents) || request.amountCents <= 0) {
      throw new Error(`Charge amount must be a positive integer of cents, got ${request.amountCents}`);
    }
    if (!request.paymentMethod.startsWith('pm_')) {
      throw new PaymentDeclinedError('no_payment_method', 'The workspace has no saved payment method.');
    }
    const failure = FAILING_TEST_CARDS[request.paymentMethod];
    const row = await this.ledger.recordCharge({
      id: `pi_${randomBase62(12)}`,
      idempotencyKey: request.idempotencyKey,
      payment_method: request.paymentMethod,
      amount_cents: request.amountCents,
      currency: request.currency,
      description: request.description,
      metadata: request.metadata,
      status: failure ? 'failed' : 'succeeded',
      decline_code: failure?.reason ?? null,
    });
    if (row.payment_method !== request.paymentMethod || row.amount_cents !== request.amountCents) {
      throw new Error(
        `Keys for idempotent requests can only be used with the same parameters they were first used with (key ${request.idempotencyKey})`,
      );
    }
    if (row.status === 'failed') {
      const replayed = FAILING_TEST_CARDS[row.payment_method];
      throw new PaymentDeclinedError(
        (row.decline_code as DeclineReason | null) ?? 'card_declined',
        replayed?.message ?? 'Your card was declined.',
      );
    }
    return { chargeId: row.id, amountCents: row.amount_cents };
  }

  async refund(request: RefundRequest): Promise<{ refundId: string }> {
    const replay = await this.ledger.findRefundByKey(request.idempotencyKey);
    if (replay) return this.replayed(replay.charge_id, replay.id, request);
    const charge = await this.ledger.findCharge(request.chargeId);
    if (!charge) throw new RefundRefusedError('resource_missing', `No such payment_intent: '${request.chargeId}'`);
    if (charge.status !== 'succeeded') {
      throw new RefundRefusedError(
        'charge_not_refundable',
        `This PaymentIntent (${charge.id}) does not have a successful charge to refund.`,
      );
    }
    const inserted = await this.ledger.insertRefund({
      id: `re_${randomBase62(12)}`,
      idempotency_key: request.idempotencyKey,
      charge_id: charge.id,
      amount_cents: charge.amount_cents,
    });
    if (inserted) return { refundId: inserted.id };
    // Lost a race: either a twin request with the same key, or a refund of the same charge under another key.
    const twin = await this.ledger.findRefundByKey(request.idempotencyKey);
    if (twin) return this.replayed(twin.charge_id, twin.id, request);
    throw new RefundRefusedError('charge_already_refunded', `Charge ${charge.id} has already been refunded.`);
  }

  private replayed(chargeId: string, refundId: string, request: RefundRequest): { refundId: string } {
    if (chargeId !== request.chargeId) {
      throw new Error(
        `Keys for idempotent requests can only be used with the same parameters they were first used with (key ${request.idempotencyKey})`,
      );
    }
    return { refundId };
  }
}

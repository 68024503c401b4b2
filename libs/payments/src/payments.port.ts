export interface ChargeRequest {
  /** The workspace's saved card: a Stripe payment method id (`pm_...`). */
  paymentMethod: string;
  amountCents: number;
  currency: 'USD';
  /**
   * Derived from the purchase and the step (`purchase:<id>:charge`), so a retried or recovered step can
   * never charge twice.
   */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export interface Charge {
  /** The provider's id for the charge (a PaymentIntent id), needed to refund it. */
  chargeId: string;
  amountCents: number;
}

export interface RefundRequest {
  chargeId: string;
  idempotencyKey: string;
}

export type DeclineReason = 'card_declined' | 'insufficient_funds' | 'authentication_required' | 'no_payment_method';

/** The card was not charged and retrying will not help (a 402 for the caller). */
export class PaymentDeclinedError extends Error {
  constructor(
    readonly reason: DeclineReason,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentDeclinedError';
  }
}

/** The provider could not be reached or failed on its side: the same idempotent request may be retried. */
export class PaymentUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentUnavailableError';
  }
}

/** A saved card as the provider describes it, to show which card will be charged (never its number). */
export interface CardSummary {
  paymentMethod: string;
  /** `visa`, `mastercard`, `amex`, ... as the provider names it. */
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** Charges the workspace's saved card off-session and refunds: `sandbox` or `stripe` (PaymentIntents). */
export abstract class Payments {
  abstract readonly name: string;
  /**
   * The card behind a payment method id, asked of the provider: PaymentDeclinedError `no_payment_method`
   * for an id it does not know (or that is no card), PaymentUnavailableError when it cannot be asked.
   */
  abstract card(paymentMethod: string): Promise<CardSummary>;
  abstract charge(request: ChargeRequest): Promise<Charge>;
  abstract refund(request: RefundRequest): Promise<{ refundId: string }>;
}

export type RefundRefusalReason = 'charge_already_refunded' | 'charge_not_refundable' | 'resource_missing';

/** The provider will not refund this charge (already refunded by another request, never succeeded, unknown). */
export class RefundRefusedError extends Error {
  constructor(
    readonly reason: RefundRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'RefundRefusedError';
  }
}

import { randomBytes } from 'node:crypto';
import { StripeForm, text } from './stripe-form';

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

export interface FakeStripeReply {
  status: number;
  body: unknown;
}

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  latest_charge: string | null;
  payment_method: string;
  confirmation_method: 'automatic';
  capture_method: 'automatic';
  description: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
  last_payment_error: unknown;
  next_action: unknown;
}

export function paymentIntent(form: StripeForm, status: string, charge: string | null): FakeIntent {
  const amount = Number(form.amount);
  return {
    id: stripeId('pi'),
    object: 'payment_intent',
    amount,
    amount_received: status === 'succeeded' ? amount : 0,
    currency: text(form, 'currency') ?? '',
    status,
    latest_charge: charge,
    payment_method: stripeId('pm'),
    confirmation_method: 'automatic',
    capture_method: 'automatic',
    description: typeof form.description === 'string' ? form.description : null,
    metadata: typeof form.metadata === 'object' ? (form.metadata as Record<string, string>) : {},
    created: now(),
    livemode: false,
    last_payment_error: null,
    next_action: null,
  };
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

export function refundOf(intent: FakeIntent): FakeRefund {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: intent.amount,
    charge: intent.latest_charge ?? '',
    payment_intent: intent.id,
    currency: intent.currency,
    status: 'succeeded',
    reason: null,
    metadata: {},
    created: now(),
  };
}

/** Stripe's error envelope. */
export function stripeError(
  status: number,
  error: { type: string; message: string; code?: string; decline_code?: string; param?: string; [k: string]: unknown },
): FakeStripeReply {
  return {
    status,
    body: {
      error: { ...error, doc_url: error.code ? `https://stripe.com/docs/error-codes/${error.code}` : undefined },
    },
  };
}

/** Stripe's test payment methods that fail, with the errors Stripe answers for an off-session confirmation. */
export const DECLINING_TEST_CARDS: Record<string, { code: string; decline_code: string; message: string }> = {
  pm_card_chargeDeclined: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: {
    code: 'expired_card',
    decline_code: 'expired_card',
    message: 'Your card has expired.',
  },
  pm_card_authenticationRequired: {
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
};

export const SUCCEEDING_TEST_CARDS = new Set([
  'pm_card_visa',
  'pm_card_mastercard',
  'pm_card_amex',
  'pm_card_visa_debit',
]);

/** Card details of Stripe's test payment methods (brand, last four), as GET /v1/payment_methods/{id} answers them. */
const TEST_CARD_DETAILS: Record<string, { brand: string; last4: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_visa_debit: { brand: 'visa', last4: '5556' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995' },
  pm_card_chargeDeclinedExpiredCard: { brand: 'visa', last4: '0069' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184' },
};

/** A Stripe PaymentMethod object of type card, or undefined for an id Stripe does not know. */
export function paymentMethodOf(id: string): Record<string, unknown> | undefined {
  const card = TEST_CARD_DETAILS[id];
  if (!card) return undefined;
  const expYear = new Date().getUTCFullYear() + 1;
  return {
    id,
    object: 'payment_method',
    type: 'card',
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: card.brand,
      last4: card.last4,
      exp_month: 12,
      exp_year: expYear,
      funding: id.includes('debit') ? 'debit' : 'credit',
      country: 'US',
      fingerprint: `fp${card.last4}`,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'unchecked' },
      wallet: null,
    },
    created: now(),
    customer: null,
    livemode: false,
    metadata: {},
  };
}

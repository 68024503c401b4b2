import { StripeForm, text } from './stripe-form';
import {
  DECLINING_TEST_CARDS,
  FakeIntent,
  FakeRefund,
  FakeStripeReply,
  SUCCEEDING_TEST_CARDS,
  paymentIntent,
  paymentMethodOf,
  refundOf,
  stripeError,
  stripeId,
} from './stripe-objects';

/** The fake's Stripe account: PaymentIntents confirmed with test cards, and refunds of them. */
export class FakeStripeAccount {
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds = new Map<string, FakeRefund>();

  createPaymentIntent(form: StripeForm): FakeStripeReply {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        param: 'amount',
        message: `Invalid integer: ${text(form, 'amount') ?? ''}`,
      });
    }
    if (amount < 50) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_small',
        param: 'amount',
        message: 'Amount must be at least $0.50 usd',
      });
    }
    if (text(form, 'currency') !== 'usd') {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_empty',
        param: 'currency',
        message: 'Invalid currency.',
      });
    }
    const pm = text(form, 'payment_method') ?? '';
    const declined = DECLINING_TEST_CARDS[pm];
    if (!declined && !SUCCEEDING_TEST_CARDS.has(pm)) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_method',
        message: `No such PaymentMethod: '${pm}'`,
      });
    }
    const offSession = text(form, 'off_session') === 'true';
    const confirm = text(form, 'confirm') === 'true';
    if (!confirm) {
      const intent = paymentIntent(form, 'requires_confirmation', null);
      this.intents.set(intent.id, intent);
      return { status: 200, body: intent };
    }
    if (declined && !(declined.code === 'authentication_required' && !offSession)) {
      const charge = stripeId('ch');
      const intent = paymentIntent(form, 'requires_payment_method', charge);
      const error = {
        type: 'card_error',
        code: declined.code,
        decline_code: declined.decline_code,
        message: declined.message,
        charge,
      };
      intent.last_payment_error = error;
      this.intents.set(intent.id, intent);
      return stripeError(402, { ...error, payment_intent: intent });
    }
    if (declined) {
      // On-session, a card needing 3DS waits for the customer instead of failing.
      const intent = paymentIntent(form, 'requires_action', null);
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
      this.intents.set(intent.id, intent);
      return { status: 200, body: intent };
    }
    const intent = paymentIntent(form, 'succeeded', stripeId('ch'));
    this.intents.set(intent.id, intent);
    return { status: 200, body: intent };
  }

  createRefund(form: StripeForm): FakeStripeReply {
    const id = text(form, 'payment_intent');
    if (!id) {
      return stripeError(400, {
        type: 'invalid_request_error',
        message: 'One of the following params should be provided for this request: payment_intent or charge.',
      });
    }
    const intent = this.intents.get(id);
    if (!intent) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_intent',
        message: `No such payment_intent: '${id}'`,
      });
    }
    if (intent.status !== 'succeeded') {
      return stripeError(400, {
        type: 'invalid_request_error',
        message: `This PaymentIntent (${id}) does not have a successful charge to refund.`,
      });
    }
    if ([...this.refunds.values()].some((r) => r.payment_intent === id)) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${intent.latest_charge} has already been refunded.`,
      });
    }
    const refund = refundOf(intent);
    this.refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  }

  /** GET /v1/payment_methods/{id}: Stripe's test cards (the declining ones too: a card is stored before it is charged). */
  retrievePaymentMethod(id: string): FakeStripeReply {
    const method = paymentMethodOf(id);
    if (method) return { status: 200, body: method };
    return stripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'payment_method',
      message: `No such PaymentMethod: '${id}'`,
    });
  }

  retrieve(kind: 'payment_intents' | 'refunds', id: string): FakeStripeReply {
    const found = kind === 'payment_intents' ? this.intents.get(id) : this.refunds.get(id);
    if (found) return { status: 200, body: found };
    const noun = kind === 'payment_intents' ? 'payment_intent' : 'refund';
    return stripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'id',
      message: `No such ${noun}: '${id}'`,
    });
  }
}

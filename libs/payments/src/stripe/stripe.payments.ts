import Stripe from 'stripe';
import {
  CardSummary,
  Charge,
  ChargeRequest,
  PaymentDeclinedError,
  PaymentUnavailableError,
  Payments,
  RefundRefusedError,
  RefundRequest,
} from '../payments.port';
import { cardError, chargeError, refundError } from './stripe-errors';

export interface StripeSettings {
  /** `https://api.stripe.com`, or a local fake in tests. */
  apiUrl: string;
  secretKey: string;
  timeoutMs: number;
}

/** Network failures are retried by the SDK under the same idempotency key, so a retry can never charge twice. */
const NETWORK_RETRIES = 2;

/** The workspace's saved card charged off-session through PaymentIntents (DESIGN.md decision 5). */
export class StripePayments extends Payments {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(settings: StripeSettings) {
    super();
    const url = new URL(settings.apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    this.stripe = new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port || (protocol === 'http' ? 80 : 443),
      protocol,
      maxNetworkRetries: NETWORK_RETRIES,
      timeout: settings.timeoutMs,
      telemetry: false,
      appInfo: { name: 'custom-domains' },
    });
  }

  async card(paymentMethod: string): Promise<CardSummary> {
    if (!/^pm_\w+$/.test(paymentMethod)) {
      throw new PaymentDeclinedError(
        'no_payment_method',
        `${paymentMethod} is not a Stripe payment method id (pm_...)`,
      );
    }
    let method: Stripe.PaymentMethod;
    try {
      method = await this.stripe.paymentMethods.retrieve(paymentMethod);
    } catch (error) {
      throw cardError(error);
    }
    if (method.type !== 'card' || !method.card) {
      throw new PaymentDeclinedError(
        'no_payment_method',
        `${paymentMethod} is a ${method.type} payment method, not a card`,
      );
    }
    const { brand, last4, exp_month: expMonth, exp_year: expYear } = method.card;
    return { paymentMethod: method.id, brand, last4, expMonth, expYear };
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    if (!request.paymentMethod.startsWith('pm_')) {
      throw new PaymentDeclinedError('no_payment_method', 'The workspace has no saved payment method.');
    }
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          payment_method: request.paymentMethod,
          confirm: true,
          off_session: true,
          description: request.description,
          metadata: request.metadata,
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      throw chargeError(error);
    }
    switch (intent.status) {
      case 'succeeded':
        return { chargeId: intent.id, amountCents: intent.amount };
      case 'requires_action':
        // Off-session there is nobody to complete 3-D Secure: the charge did not happen.
        throw new PaymentDeclinedError('authentication_required', 'The card requires authentication (3-D Secure).');
      case 'requires_payment_method':
      case 'canceled':
        throw new PaymentDeclinedError('card_declined', 'The card was declined.');
      case 'processing':
      case 'requires_capture':
      case 'requires_confirmation':
      default:
        // Not settled (or a status newer than this code): money may still move, so this is no decline; the
        // same key answers the same PaymentIntent once Stripe has settled it.
        throw new PaymentUnavailableError(`PaymentIntent ${intent.id} is ${intent.status}, not succeeded`);
    }
  }

  async refund(request: RefundRequest): Promise<{ refundId: string }> {
    let refund: Stripe.Refund;
    try {
      refund = await this.stripe.refunds.create(
        { payment_intent: request.chargeId },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      throw refundError(error);
    }
    if (refund.status === 'failed' || refund.status === 'canceled') {
      throw new RefundRefusedError(
        'charge_not_refundable',
        `Refund ${refund.id} of ${request.chargeId} is ${refund.status}`,
      );
    }
    return { refundId: refund.id };
  }
}

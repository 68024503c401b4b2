import Stripe from 'stripe';
import { DeclineReason, PaymentDeclinedError, PaymentUnavailableError, RefundRefusedError } from '../payments.port';

type StripeError = InstanceType<typeof Stripe.errors.StripeError>;

const isStripeError = (error: unknown): error is StripeError => error instanceof Stripe.errors.StripeError;

/** Stripe could not be reached or failed on its side (the SDK already retried under the same key). */
function unavailable(error: StripeError): PaymentUnavailableError | undefined {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    (error.statusCode ?? 0) >= 500
  ) {
    return new PaymentUnavailableError(`Stripe unavailable (${error.type}): ${error.message}`);
  }
  return undefined;
}

function declineReasonOf(code: string | undefined, declineCode: string | undefined): DeclineReason {
  if (code === 'authentication_required' || declineCode === 'authentication_required') return 'authentication_required';
  if (code === 'insufficient_funds' || declineCode === 'insufficient_funds') return 'insufficient_funds';
  return 'card_declined';
}

/** A failed off-session charge, in the port's terms; anything unexpected (a bug on our side) is rethrown as is. */
export function chargeError(error: unknown): unknown {
  if (!isStripeError(error)) return error;
  if (error instanceof Stripe.errors.StripeCardError) {
    return new PaymentDeclinedError(declineReasonOf(error.code, error.decline_code), error.message);
  }
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === 'resource_missing' &&
    error.param === 'payment_method'
  ) {
    return new PaymentDeclinedError('no_payment_method', error.message);
  }
  return unavailable(error) ?? error;
}

export function refundError(error: unknown): unknown {
  if (!isStripeError(error)) return error;
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.code === 'charge_already_refunded')
      return new RefundRefusedError('charge_already_refunded', error.message);
    if (error.code === 'resource_missing') return new RefundRefusedError('resource_missing', error.message);
    return new RefundRefusedError('charge_not_refundable', error.message);
  }
  return unavailable(error) ?? error;
}

/** A payment method that could not be read: unknown to Stripe is no card on file; an outage stays one. */
export function cardError(error: unknown): unknown {
  if (!isStripeError(error)) return error;
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
    return new PaymentDeclinedError('no_payment_method', error.message);
  }
  return unavailable(error) ?? error;
}

/** Charging for purchases: the Payments port, its Nest module and the sandbox and Stripe adapters. */
export { PaymentsModule } from './payments.module';
// The port and its types
export {
  type CardSummary,
  type Charge,
  type ChargeRequest,
  PaymentDeclinedError,
  Payments,
  PaymentUnavailableError,
  RefundRefusedError,
  type RefundRequest,
} from './payments.port';
// Adapters
export { SandboxPayments } from './sandbox/sandbox.payments';
export { StripePayments } from './stripe/stripe.payments';

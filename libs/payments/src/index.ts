export {
  type Charge,
  type ChargeRequest,
  PaymentDeclinedError,
  Payments,
  PaymentUnavailableError,
  RefundRefusedError,
  type RefundRequest,
} from './payments.port';
export { PaymentsModule } from './payments.module';
export { SandboxPayments } from './sandbox/sandbox.payments';
export { StripePayments } from './stripe/stripe.payments';

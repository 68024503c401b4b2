export * from './payments.port';
export * from './payments.module';
export { SandboxPayments } from './sandbox/sandbox.payments';
export { StripePayments } from './stripe/stripe.payments';

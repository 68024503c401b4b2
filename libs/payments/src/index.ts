export * from './payments.port';
export * from './payments.module';
export { SandboxPayments } from './sandbox/sandbox.payments';

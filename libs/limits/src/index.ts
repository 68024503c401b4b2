export { Idempotent, IDEMPOTENT } from './idempotency.interceptor';
export { LimitsModule } from './limits.module';

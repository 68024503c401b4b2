export { Idempotent, IDEMPOTENT } from './idempotency.interceptor';
export { LimitsModule } from './limits.module';
export { RateLimitGuard } from './rate-limit.guard';

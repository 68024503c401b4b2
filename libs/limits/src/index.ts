export * from './rate-limit.rules';
export * from './idempotency.interceptor';
export * from './limits.module';

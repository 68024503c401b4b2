import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IdempotencyStore } from './idempotency.store';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStore } from './rate-limit.store';

/**
 * Rate limits on every API handler (a global guard, after authentication); idempotency on the
 * routes marked @Idempotent() (their own interceptor, resolved in each controller's module, hence
 * global and exporting its store). The guard is exported for fast paths that answer before Nest's
 * pipeline (RateLimitGuard.admitLocally).
 */
@Global()
@Module({
  providers: [RateLimitStore, IdempotencyStore, RateLimitGuard, { provide: APP_GUARD, useExisting: RateLimitGuard }],
  exports: [IdempotencyStore, RateLimitGuard],
})
export class LimitsModule {}

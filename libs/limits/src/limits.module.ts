import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IdempotencyStore } from './idempotency.store';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStore } from './rate-limit.store';

/**
 * Rate limits on every API handler (a global guard, after authentication); idempotency on the
 * routes marked @Idempotent() (their own interceptor, resolved in each controller's module, hence
 * global and exporting its store).
 */
@Global()
@Module({
  providers: [RateLimitStore, IdempotencyStore, { provide: APP_GUARD, useClass: RateLimitGuard }],
  exports: [IdempotencyStore],
})
export class LimitsModule {}

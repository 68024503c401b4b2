import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Clock, SystemClock } from './clock';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';
import { RateLimitInterceptor } from './rate-limit.interceptor';
import { RateLimitStore } from './rate-limit.store';

/** Rate limits, then idempotency, around every API handler (after authentication). */
@Module({
  providers: [
    { provide: Clock, useClass: SystemClock },
    RateLimitStore,
    IdempotencyStore,
    { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
})
export class LimitsModule {}

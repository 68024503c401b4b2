import { RequestWithPrincipal } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CLOCK, Clock, DomainError } from '@app/kernel';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateRule, rulesFor, windowOf } from './rate-limit.rules';
import { RateLimitStore } from './rate-limit.store';

interface Verdict {
  rule: RateRule;
  count: number;
  resetSeconds: number;
}

const describeWindow = (seconds: number) =>
  seconds === 60 ? 'minute' : seconds === 3600 ? 'hour' : seconds === 86_400 ? 'day' : `${seconds} seconds`;

/**
 * SPEC section 8 limits, per API key (or per client IP for the keyless tools), counted in shared
 * fixed windows. A global guard registered after AuthGuard (LimitsModule comes after AuthModule),
 * so it runs after authentication; every limited response carries the x-ratelimit headers. A
 * guard rather than an interceptor: a route without interceptors skips Nest's per-request
 * interceptor chain (an rxjs pipeline and an AsyncResource per interceptor).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & RequestWithPrincipal>();
    if (!this.config.rateLimits) return true;
    const rules = rulesFor(request.method, request.url).filter((r) => r.per === 'ip' || request.principal);
    if (!rules.length) return true;
    const now = this.clock.now();
    const windows = rules.map((rule) => windowOf(now, rule.windowSeconds));
    const subject = (rule: RateRule) => (rule.per === 'key' ? request.principal?.credentialId : request.ip);
    const counts = await this.store.consume(
      rules.map((rule, i) => ({ bucket: `${rule.action}:${subject(rule)}`, windowStart: windows[i].start })),
      now,
    );
    const verdicts: Verdict[] = rules.map((rule, i) => ({
      rule,
      count: counts[i],
      resetSeconds: windows[i].resetSeconds,
    }));
    const exceeded = verdicts.filter((v) => v.count > v.rule.limit).sort((a, b) => b.resetSeconds - a.resetSeconds)[0];
    const shown = exceeded ?? verdicts.sort((a, b) => a.rule.limit - a.count - (b.rule.limit - b.count))[0];
    const reply = http.getResponse<FastifyReply>();
    void reply.header('x-ratelimit-limit', shown.rule.limit);
    void reply.header('x-ratelimit-remaining', Math.max(0, shown.rule.limit - shown.count));
    void reply.header('x-ratelimit-reset', shown.resetSeconds);
    if (exceeded) {
      const { action, limit, windowSeconds } = exceeded.rule;
      void reply.header('retry-after', exceeded.resetSeconds);
      throw new DomainError(
        'rate_limited',
        `Rate limit for ${action} exceeded (${limit} per ${describeWindow(windowSeconds)}): retry in ${exceeded.resetSeconds} seconds`,
        { action, retryAfter: exceeded.resetSeconds },
      );
    }
    return true;
  }
}

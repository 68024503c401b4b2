import { RequestWithPrincipal } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CLOCK, Clock, DomainError } from '@app/kernel';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateRule, rulesFor, windowOf } from './rate-limit.rules';
import { Consumption, RateLimitStore } from './rate-limit.store';

type LimitedRequest = FastifyRequest & RequestWithPrincipal;

interface Asked {
  rules: RateRule[];
  windows: { start: number; resetSeconds: number }[];
  items: Consumption[];
  now: number;
}

interface Verdict {
  rule: RateRule;
  count: number;
  resetSeconds: number;
}

const describeWindow = (seconds: number) =>
  seconds === 60 ? 'minute' : seconds === 3600 ? 'hour' : seconds === 86_400 ? 'day' : `${seconds} seconds`;

/**
 * SPEC section 8 limits, per API key (or per client IP for the keyless tools), counted in shared
 * fixed windows (RateLimitStore: budget reserved in PostgreSQL, mostly spent in memory). A global guard registered after AuthGuard (LimitsModule comes after AuthModule),
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

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const asked = this.consumptionsOf(request);
    if (!asked) return true;
    const local = this.store.tryConsumeLocally(asked.items);
    if (local) return this.judge(asked, local, reply);
    return this.store.consume(asked.items, asked.now).then((counts) => this.judge(asked, counts, reply));
  }

  /**
   * For a fast path that answers before Nest's pipeline: counts the request from the reserve in
   * memory when every bucket has one (never more than the limit: a reserve is budget PostgreSQL
   * granted), sets the headers and answers true; answers false and spends nothing otherwise, and
   * the request then goes through this guard as usual.
   */
  admitLocally(request: LimitedRequest, reply: FastifyReply): boolean {
    const asked = this.consumptionsOf(request);
    if (!asked) return true;
    const counts = this.store.tryConsumeLocally(asked.items);
    return counts ? this.judge(asked, counts, reply) : false;
  }

  private consumptionsOf(request: LimitedRequest): Asked | undefined {
    if (!this.config.rateLimits) return undefined;
    const rules = rulesFor(request.method, request.url).filter((r) => r.per === 'ip' || request.principal);
    if (!rules.length) return undefined;
    const now = this.clock.now();
    const windows = rules.map((rule) => windowOf(now, rule.windowSeconds));
    const subject = (rule: RateRule) => (rule.per === 'key' ? request.principal?.credentialId : request.ip);
    const items = rules.map((rule, i) => ({
      bucket: `${rule.action}:${subject(rule)}`,
      windowStart: windows[i].start,
      windowSeconds: rule.windowSeconds,
      limit: rule.limit,
    }));
    return { rules, windows, items, now };
  }

  /** Sets the x-ratelimit headers of the tightest rule; throws 429 when one is exceeded. */
  private judge({ rules, windows }: Asked, counts: number[], reply: FastifyReply): true {
    const verdicts: Verdict[] = rules.map((rule, i) => ({
      rule,
      count: counts[i],
      resetSeconds: windows[i].resetSeconds,
    }));
    const exceeded = verdicts.filter((v) => v.count > v.rule.limit).sort((a, b) => b.resetSeconds - a.resetSeconds)[0];
    const shown = exceeded ?? verdicts.sort((a, b) => a.rule.limit - a.count - (b.rule.limit - b.count))[0];
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

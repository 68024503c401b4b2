import { APP_CONFIG, AcmeIssuerConfig, AppConfig } from '@app/config';
import { DnsProber, DnsResolver, climbCaa } from '@app/dns';
import {
  CaaClimbStep,
  caaAllowsIssuer,
  caaParameters,
  caaRecordsAllowing,
  caaTagFor,
  challengeDelegation,
  delegationState,
  isWildcard,
  wildcardBase,
} from '@app/hostname-rules';
import type { CertificateAttempt, CertificateOutcome } from '@app/kernel';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AcmeIssuers } from './acme/acme-issuers.service';
import { describeAcmeError } from './acme/describe-error';
import { CertificateOrderMetrics } from './certificate-orders.metrics';
import { CertificateRepository } from './certificate.repository';
import { IssuanceBudget } from './issuance-budget.store';
import { IssuanceFailure, classifyIssuanceError } from './model/issuance-failure';
import { issuanceLimits, orderBuckets, registeredDomain } from './model/issuance-limits';
import { caaMessage, delegationMessage, failureMessage } from './model/issuance-messages';
import { retryBackoffMs } from './model/issuance-failure';
import { RenewalPlanner } from './renewal-planner.service';

export interface OrderRequest {
  id: string;
  hostname: string;
  workspaceId: string;
  /** Failed orders since the last certificate: the back-off grows with it. */
  failures: number;
  twin?: string;
}

/** What an order tells its domain: every outcome of the `certificate` command but the CA's renewal advice. */
export type OrderOutcome = Exclude<CertificateOutcome, { result: 'renewal_advised' }>;

const HOUR = 3_600_000;

/**
 * One certificate order for one domain: the CAs its CAA allows (with RFC 8657 account binding), in
 * the configured order, each within our count of its limits; on a CA's refusal, rate limit or outage
 * the next CA is tried at once. Every try is an attempt on the domain, and the outcome always says
 * what happened and when the next try comes: nothing is silently retried.
 */
@Injectable()
export class CertificateOrders {
  private readonly logger = new Logger(CertificateOrders.name);
  private readonly metrics = CertificateOrderMetrics.get();
  /** A CA that rate-limited us or was down is not asked again before this (per node). */
  private readonly pausedUntil = new Map<string, { until: Date; failure: IssuanceFailure }>();

  constructor(
    private readonly issuers: AcmeIssuers,
    private readonly certificates: CertificateRepository,
    private readonly budget: IssuanceBudget,
    private readonly planner: RenewalPlanner,
    private readonly resolver: DnsResolver,
    private readonly prober: DnsProber,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(request: OrderRequest): Promise<OrderOutcome | { type: 'wait'; until: Date }> {
    const now = new Date();
    let dns = await this.dnsChallenge(request, now);
    if ('result' in dns) return dns;
    const wildcard = isWildcard(request.hostname);
    // A wildcard's CAA is that of the name under its `*` label (RFC 8659 section 4.3).
    const climb = await climbCaa(this.resolver, wildcardBase(request.hostname)).catch(() => []);
    let caa = await this.caaVerdicts(climb, dns.delegated ? 'dns-01' : 'http-01', wildcard);
    if (!caa.allowed.length && dns.delegated && !wildcard) {
      // CAA may limit `validationmethods` to http-01: then the delegation is not used.
      const http = await this.caaVerdicts(climb, 'http-01', false);
      if (http.allowed.length) [caa, dns] = [http, {}];
    }
    const { allowed, refusedByCaa } = caa;
    if (!allowed.length) return this.caaRefusal(request, climb, refusedByCaa, now);

    const current = await this.certificates.find(request.id);
    const names = [request.hostname, ...(await this.reachableTwin(request.twin))];
    const attempts: CertificateAttempt[] = [];
    const failures: Array<{ code: string; message: string; retryAt: Date }> = [];
    for (const issuer of allowed) {
      const paused = this.pausedUntil.get(issuer.name);
      if (paused && paused.until > now) {
        failures.push(this.described(paused.failure, issuer, request, now));
        continue;
      }
      const replaces = current?.issuerName === issuer.name ? (current.certId ?? undefined) : undefined;
      const held = await this.takeBudget(issuer, request.hostname, Boolean(replaces && issuer.ariRenewalsExempt));
      if (!held.granted) {
        const message = failureMessage(
          'budget',
          { hostname: request.hostname, ca: issuer.name, detail: `${held.key} is used up`, retryAt: held.retryAt },
          now,
        );
        const accountWide = held.key.startsWith('new_orders:');
        this.metrics.budgetWaits.inc({ limit: held.key.split(':')[0] });
        failures.push({ code: accountWide ? 'account_budget' : 'budget', message, retryAt: held.retryAt });
        continue;
      }
      const at = new Date().toISOString();
      try {
        const issued = await this.issuers.issue(issuer, names, { replaces, dns: dns.delegated });
        const plan = await this.planner.plan(issuer, issued);
        await this.certificates.save(request.id, request.hostname, issued, plan);
        attempts.push({ at, issuer: issuer.name, outcome: 'issued' });
        this.metrics.attempts.inc({ issuer: issuer.name, outcome: 'issued' });
        return {
          type: 'certificate',
          result: 'issued',
          expiresAt: issued.notAfter.toISOString(),
          renewAt: plan.renewAt.toISOString(),
          issuer: issuer.name,
          attempts,
        };
      } catch (error) {
        const failure = classifyIssuanceError(describeAcmeError(error), request.failures + 1, new Date());
        const described = this.described(failure, issuer, request, now, dns.delegated);
        this.logger.warn(
          {
            domainId: request.id,
            hostname: request.hostname,
            issuer: issuer.name,
            code: failure.code,
            detail: failure.detail,
          },
          'Certificate order failed',
        );
        attempts.push({ at, issuer: issuer.name, outcome: 'failed', code: failure.code, message: described.message });
        this.metrics.attempts.inc({ issuer: issuer.name, outcome: failure.code });
        await this.settleBudget(issuer, request.hostname, failure);
        if (failure.code === 'validation_failed' || failure.code === 'internal_error') {
          // The hostname (or our side), not the CA: another CA would fail the same way.
          const retryOnCheck = failure.code === 'validation_failed';
          return { type: 'certificate', result: 'deferred', ...stamp(described), retryOnCheck, attempts };
        }
        if (failure.code === 'ca_rate_limited' || failure.code === 'ca_unavailable' || failure.code === 'ca_account')
          this.pausedUntil.set(issuer.name, { until: failure.retryAt, failure });
        failures.push(described);
      }
    }
    // Every CA's account is out of new orders: nothing about this domain; it waits its turn in the queue.
    if (!attempts.length && failures.every((f) => f.code === 'account_budget'))
      return { type: 'wait', until: failures.reduce((a, b) => (b.retryAt < a.retryAt ? b : a)).retryAt };
    return this.nothingIssued(
      failures.map((f) => (f.code === 'account_budget' ? { ...f, code: 'budget' } : f)),
      attempts,
    );
  }

  /** Every CA refused or waits: the soonest retry decides; refusals by all of them are the customer's to lift. */
  private nothingIssued(
    failures: Array<{ code: string; message: string; retryAt: Date }>,
    attempts: CertificateAttempt[],
  ): OrderOutcome {
    const soonest = failures.reduce((a, b) => (b.retryAt < a.retryAt ? b : a));
    const latest = attempts.length ? failures[failures.length - 1] : soonest;
    const shown = { ...latest, retryAt: soonest.retryAt };
    if (failures.every((f) => f.code === 'ca_refused'))
      return { type: 'certificate', result: 'failed', ...stamp(shown), attempts };
    return { type: 'certificate', result: 'deferred', ...stamp(shown), retryOnCheck: false, attempts };
  }

  /** The issuers the CAA set lets issue by `method`, in the configured order, and those it refuses. */
  private async caaVerdicts(climb: CaaClimbStep[], method: 'http-01' | 'dns-01', wildcard: boolean) {
    const allowed: AcmeIssuerConfig[] = [];
    const refusedByCaa: Array<{ issuer: AcmeIssuerConfig; accountUri?: string }> = [];
    for (const issuer of this.issuers.list()) {
      const accountUri = await this.accountUriFor(issuer, climb);
      const named = { name: issuer.name, caaIdentities: issuer.caaIdentities, accountUri };
      if (caaAllowsIssuer(climb, named, method, wildcard).allowed) allowed.push(issuer);
      else refusedByCaa.push({ issuer, accountUri });
    }
    return { allowed, refusedByCaa };
  }

  private caaRefusal(
    request: OrderRequest,
    climb: CaaClimbStep[],
    refused: Array<{ issuer: AcmeIssuerConfig; accountUri?: string }>,
    now: Date,
  ): OrderOutcome {
    const relevant = climb.find((step) => step.records.length > 0);
    const name = relevant?.name ?? request.hostname;
    const records = (relevant?.records ?? []).map((r) => `${r.flags} ${r.tag} "${r.value}"`);
    const tag = caaTagFor(climb, isWildcard(request.hostname));
    const allowing = refused.flatMap(({ issuer, accountUri }) =>
      caaRecordsAllowing(name, { name: issuer.name, caaIdentities: issuer.caaIdentities, accountUri }, tag),
    );
    const message = caaMessage(name, records, allowing);
    this.metrics.attempts.inc({ issuer: 'caa', outcome: 'caa_forbids' });
    const retryAt = new Date(now.getTime() + HOUR).toISOString();
    const attempt: CertificateAttempt = {
      at: now.toISOString(),
      issuer: 'caa',
      outcome: 'failed',
      code: 'caa_forbids',
      message,
    };
    return { type: 'certificate', result: 'failed', code: 'caa_forbids', message, retryAt, attempts: [attempt] };
  }

  /**
   * Our account URL where the CAA set binds an account (RFC 8657): registering first is the only way
   * to know it. Without `accounturi` in the set, only an account already known is used.
   */
  private async accountUriFor(issuer: AcmeIssuerConfig, climb: CaaClimbStep[]): Promise<string | undefined> {
    const relevant = climb.find((step) => step.records.length > 0);
    const binds = relevant?.records.some(
      (r) => r.tag.toLowerCase() === 'issue' && caaParameters(r.value).has('accounturi'),
    );
    if (!binds) return undefined;
    return this.issuers.accountUri(issuer).catch(() => this.issuers.knownAccountUri(issuer));
  }

  /** New orders and certificates per registered domain are taken; failed validations only checked. */
  private async takeBudget(issuer: AcmeIssuerConfig, hostname: string, exempt: boolean) {
    if (exempt) return { granted: true as const };
    const limits = issuanceLimits(issuer.limits);
    const keys = orderBuckets(issuer.name, hostname, registeredDomain(hostname));
    const failedValidations = await this.budget.check([
      { key: keys.failed_validations, limit: limits.failed_validations },
    ]);
    if (!failedValidations.granted) return failedValidations;
    return this.budget.take([
      { key: keys.new_orders, limit: limits.new_orders },
      { key: keys.certificates_per_domain, limit: limits.certificates_per_domain },
    ]);
  }

  /** A failed validation counts against the hostname; no certificate came, so the domain's count is given back. */
  private async settleBudget(issuer: AcmeIssuerConfig, hostname: string, failure: IssuanceFailure): Promise<void> {
    const limits = issuanceLimits(issuer.limits);
    const keys = orderBuckets(issuer.name, hostname, registeredDomain(hostname));
    await this.budget.refund(keys.certificates_per_domain, limits.certificates_per_domain).catch(() => undefined);
    if (failure.code === 'validation_failed')
      await this.budget.spend(keys.failed_validations, limits.failed_validations).catch(() => undefined);
  }

  private described(
    failure: IssuanceFailure,
    issuer: AcmeIssuerConfig,
    request: OrderRequest,
    now: Date,
    delegated?: { name: string; target: string; record: string },
  ) {
    const context = {
      hostname: request.hostname,
      ca: issuer.name,
      detail: failure.detail,
      retryAt: failure.retryAt,
      ...(delegated ? { delegation: { name: delegated.record, target: delegated.target } } : {}),
    };
    return { code: failure.code, message: failureMessage(failure.code, context, now), retryAt: failure.retryAt };
  }

  /**
   * How the order proves control. A hostname whose `_acme-challenge` is delegated to our challenge
   * zone is validated by DNS-01 there, before its traffic moves to us and whatever sits in front of
   * it; a wildcard can only be validated so, and without the delegation its order stops here with
   * the record to add. Any other hostname is validated by HTTP-01 at the edge.
   */
  private async dnsChallenge(
    request: OrderRequest,
    now: Date,
  ): Promise<{ delegated?: { name: string; target: string; record: string } } | OrderOutcome> {
    const zone = this.config.challengeZone?.zone;
    const wildcard = isWildcard(request.hostname);
    if (!zone && !wildcard) return {};
    const delegation = zone ? challengeDelegation(request.hostname, request.workspaceId, zone) : undefined;
    const found = (delegation && (await this.prober.delegationTargets(delegation))) ?? 'lookup_failed';
    if (delegation && found !== 'lookup_failed' && delegationState(found, delegation) === 'correct')
      return {
        delegated: { name: wildcardBase(request.hostname), target: delegation.target, record: delegation.name },
      };
    if (!wildcard) return {};
    const retryAt = new Date(now.getTime() + retryBackoffMs(request.failures + 1, 60_000, 3_600_000));
    const message = delegationMessage(request.hostname, delegation, found, retryAt, now);
    const attempt: CertificateAttempt = {
      at: now.toISOString(),
      issuer: 'dns',
      outcome: 'failed',
      code: 'dns_delegation',
      message,
    };
    this.metrics.attempts.inc({ issuer: 'dns', outcome: 'dns_delegation' });
    return {
      type: 'certificate',
      result: 'deferred',
      code: 'dns_delegation',
      message,
      retryAt: retryAt.toISOString(),
      retryOnCheck: true,
      attempts: [attempt],
    };
  }

  /**
   * A `twin` (the www name of a `redirectWww` domain) is named too, but only when its DNS already
   * points at the edge: HTTP-01 must pass for every name, and a twin never set up must not sink the order.
   */
  private async reachableTwin(twin: string | undefined): Promise<string[]> {
    if (!twin) return [];
    const probe = await this.prober.probe(twin).catch(() => undefined);
    return probe?.dns === 'correct' ? [twin] : [];
  }
}

const stamp = (f: { code: string; message: string; retryAt: Date }) => ({
  code: f.code,
  message: f.message,
  retryAt: f.retryAt.toISOString(),
});

import { APP_CONFIG, AppConfig } from '@app/config';
import { CaaAnswer, DnsLookupError, DnsProber, DnsResolver, OriginPreflight, OriginVerdict, climbCaa } from '@app/dns';
import {
  DnsObservation,
  DnsProblem,
  HostnameError,
  NormalizedHostname,
  PreflightWarning,
  caaIssuersWarning,
  dnsProblemWarning,
  isWildcard,
  normalizeHostname,
  wildcardBase,
} from '@app/hostname-rules';
import { DomainError } from '@app/kernel';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { FreshAnswers } from './fresh-answers';

/**
 * How long a passed origin check and a CAA answer are reused by the next creations: a SaaS sends
 * its many domains to one origin, and their CAA climbs meet at the same parent names. Failures are
 * never reused; the monitor re-checks every origin on its own.
 */
const PREFLIGHT_REUSE_MS = 30_000;
const PREFLIGHT_REUSE_ENTRIES = 10_000;

/** What the create command carries of the preflight's DNS lookup. */
export interface DnsObserved {
  dns: DnsObservation;
  problem?: DnsProblem;
}

/** Checks that run before a domain is connected: the hostname rules, the origin's SSRF rules, CAA. */
@Injectable()
export class DomainPreflight {
  private readonly logger = new Logger(DomainPreflight.name);
  private readonly originVerdicts = new FreshAnswers<OriginVerdict>(PREFLIGHT_REUSE_ENTRIES, PREFLIGHT_REUSE_MS);
  private readonly caaAnswers = new FreshAnswers<CaaAnswer[]>(PREFLIGHT_REUSE_ENTRIES, PREFLIGHT_REUSE_MS);
  private readonly caaResolver = { caa: (name: string) => this.caaAnswers.get(name, () => this.resolver.caa(name)) };

  constructor(
    private readonly resolver: DnsResolver,
    private readonly origins: OriginPreflight,
    private readonly prober: DnsProber,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  hostname(input: string): NormalizedHostname {
    try {
      // Wildcards only where DNS-01 can issue their certificates: with a challenge zone.
      const wildcards = this.config.challengeZone !== undefined;
      return normalizeHostname(input, { edgeCnameTarget: this.config.edgeCnameTarget, wildcards });
    } catch (error) {
      if (error instanceof HostnameError)
        throw new DomainError('bad_request', `hostname: ${error.message}`, { field: 'hostname' });
      throw error;
    }
  }

  async origin(originUrl: string): Promise<void> {
    await this.originVerdicts.get(originUrl, () => this.origins.check(originUrl));
  }

  /**
   * Where the hostname's DNS points now, as the monitor's probe would see it (the new domain starts
   * from it), and a warning when it already shows a mistake the monitor would name (stray AAAA,
   * proxied record, broken DNSSEC, stale cache). DNS not set up yet warns nothing; a failed lookup
   * observes nothing either (the monitor's first probe does).
   */
  async dns(hostname: string): Promise<{ observed?: DnsObserved; warnings: PreflightWarning[]; nxdomain?: string }> {
    const probe = await this.prober.probe(hostname).catch((error: unknown) => {
      if (!(error instanceof DnsLookupError)) throw error;
      return undefined;
    });
    if (!probe) return { warnings: [] };
    const observed = probe.problem ? { dns: probe.dns, problem: probe.problem } : { dns: probe.dns };
    const warnings = probe.problem ? [dnsProblemWarning(probe.problem)] : [];
    return probe.nxdomain ? { observed, warnings, nxdomain: probe.nxdomain } : { observed, warnings };
  }

  /**
   * A warning when CAA forbids every CA we order from (ACME_ISSUERS); creation goes on either way (SPEC 7).
   * `missing`: a name the DNS lookup found not to exist (NXDOMAIN), which has no CAA records either
   * (RFC 8020): when the climb starts there, it is not asked again.
   */
  async caa(hostname: string, missing?: Promise<string | undefined>): Promise<PreflightWarning[]> {
    try {
      // A wildcard's CAA is that of the name under its `*` label, `issuewild` first (RFC 8659 4.3).
      const start = wildcardBase(hostname);
      const absent = await missing?.catch(() => undefined);
      const resolver: typeof this.caaResolver =
        absent === start
          ? { caa: (name) => (name === start ? Promise.resolve([]) : this.caaResolver.caa(name)) }
          : this.caaResolver;
      const climb = await climbCaa(resolver, start);
      const warning = caaIssuersWarning(climb, this.config.acmeIssuers, isWildcard(hostname));
      return warning ? [warning] : [];
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      this.logger.warn({ hostname, code: error.code }, 'CAA lookup failed; connecting without the CAA check');
      return [];
    }
  }
}

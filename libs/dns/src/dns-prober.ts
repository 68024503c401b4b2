import {
  ChallengeDelegation,
  DnsAnswers,
  DnsObservation,
  DnsProblem,
  classifyDnsAnswers,
  delegationState,
  probeNameOf,
} from '@app/hostname-rules';
import { canonicalHostname } from '@app/kernel';
import { DnsDiagnostics, isServfail } from './dns-diagnostics';
import { DnsLookupError, DnsResolver } from './dns-resolver';

export interface EdgeTargets {
  cnameTarget: string;
  ipv4: string[];
}

export interface DnsProbe {
  dns: DnsObservation;
  /** What the name resolved to, for the customer message and the logs. */
  cname?: string;
  addresses: string[];
  /** The exact mistake, when the probe could name it (stray AAAA, proxied, broken DNSSEC, stale cache). */
  problem?: DnsProblem;
  /** The name probed does not exist (NXDOMAIN): nothing at it or under it (RFC 8020). */
  nxdomain?: string;
}

/**
 * Does the hostname point at the edge? Correct when its CNAME is the edge target, or when it
 * resolves only to the edge's addresses (apex A records, or a provider that flattens the CNAME).
 * When it does not, `problem` names the mistake (libs/hostname-rules dns-problem.ts); the deeper
 * questions (SERVFAIL, cached answers) go to DnsDiagnostics only then.
 */
export class DnsProber {
  constructor(
    private readonly resolver: DnsResolver,
    private readonly edge: EdgeTargets,
    private readonly diagnostics?: DnsDiagnostics,
  ) {}

  /** `connected` may be a wildcard: then a name its record answers is probed (`probeNameOf`). */
  async probe(connected: string): Promise<DnsProbe> {
    const hostname = probeNameOf(connected);
    let answers: DnsAnswers & { nxdomain?: true };
    try {
      answers = await this.answers(hostname);
    } catch (error) {
      // SERVFAIL for a delegated name is the customer's broken DNSSEC or nameservers, not our outage.
      const problem = isServfail(error) ? await this.diagnostics?.brokenDelegation(hostname) : undefined;
      if (problem) return { dns: 'not_resolving', addresses: [], problem };
      throw error;
    }
    const { cname, nxdomain } = answers;
    const verdict = classifyDnsAnswers(hostname, answers, this.edge);
    if (nxdomain) return { dns: verdict.dns, addresses: [], nxdomain: hostname, problem: verdict.problem };
    if (verdict.dns === 'correct' && cname === this.edge.cnameTarget) return { dns: 'correct', cname, addresses: [] };
    const result = { dns: verdict.dns, cname, addresses: [...answers.a, ...answers.aaaa] };
    if (verdict.problem || verdict.dns !== 'incorrect' || !this.diagnostics)
      return { ...result, problem: verdict.problem };
    const stale = await this.diagnostics.staleCache(hostname, answers).catch(() => undefined);
    return stale ? { ...result, problem: stale } : result;
  }

  /**
   * Whether `_acme-challenge` is delegated to our challenge zone, so a certificate can be issued by
   * DNS-01 before the hostname points at us. A failed lookup is not a delegation.
   */
  async delegated(delegation: ChallengeDelegation): Promise<boolean> {
    const found = await this.delegationTargets(delegation).catch(() => undefined);
    return found !== undefined && delegationState(found, delegation) === 'correct';
  }

  /** The CNAME targets at the delegation's name (none: no CNAME); undefined when the lookup failed. */
  async delegationTargets(delegation: ChallengeDelegation): Promise<string[] | undefined> {
    try {
      return await this.resolver.cname(delegation.name);
    } catch (error) {
      if (error instanceof DnsLookupError) return undefined;
      throw error;
    }
  }

  /** A name that does not exist (NXDOMAIN to its CNAME query) is not asked for its addresses. */
  private async answers(hostname: string): Promise<DnsAnswers & { nxdomain?: true }> {
    const targets = await this.resolver.cnameOrNxdomain(hostname);
    if (targets === 'nxdomain') return { a: [], aaaa: [], nxdomain: true };
    const [first] = targets;
    const cname = first ? canonicalHostname(first) : undefined;
    if (cname === this.edge.cnameTarget) return { cname, a: [], aaaa: [] };
    const [a, aaaa] = await Promise.all([this.resolver.a(hostname), this.resolver.aaaa(hostname)]);
    return { cname, a, aaaa };
  }
}

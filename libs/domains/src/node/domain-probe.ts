import { DnsProber, OriginPreflight, ServedCertificateProbe } from '@app/dns';
import type { ChallengeDelegation, DnsObservation } from '@app/hostname-rules';
import { DomainError } from '@app/kernel';
import { ProbeOutcome } from '../model/domain.effects';

/** Runs a domain's `probe` query: what the domain actor's check asks for. */
export interface DomainProbe {
  probe(
    hostname: string,
    originUrl: string,
    readServedCertificate: boolean,
    now: () => Date,
    delegation?: ChallengeDelegation,
  ): Promise<ProbeOutcome>;
  /** Only where the hostname's DNS points; a lookup that fails is `lookup_failed`, not an error. */
  dns(hostname: string): Promise<DnsObservation | 'lookup_failed'>;
}

/**
 * The same probe the monitor runs, now: the origin against the SSRF rules (only a block counts: any
 * other preflight failure leaves the verdict to DNS), DNS against the edge, and the certificate the
 * hostname serves when DNS is correct and the domain holds one.
 */
export class LiveDomainProbe implements DomainProbe {
  constructor(
    private readonly prober: DnsProber,
    private readonly preflight: OriginPreflight,
    private readonly served?: ServedCertificateProbe,
  ) {}

  async probe(
    hostname: string,
    originUrl: string,
    readServedCertificate: boolean,
    now: () => Date,
    delegation?: ChallengeDelegation,
  ): Promise<ProbeOutcome> {
    const blocked = await this.preflight.check(originUrl).then(
      () => false,
      (error: unknown) =>
        error instanceof DomainError && error.code === 'preflight_failed' && error.details?.reason === 'ssrf_blocked',
    );
    if (blocked) return { originBlocked: true };
    const probe = await this.prober.probe(hostname).catch((error: unknown) => {
      throw new DomainError(
        'service_unavailable',
        `DNS lookup failed: ${error instanceof Error ? error.message : 'unknown'}`,
      );
    });
    const served =
      probe.dns === 'correct' && readServedCertificate ? await this.served?.check(hostname, now()) : undefined;
    // Only while DNS is not ours yet: the delegation lets the certificate come first.
    const delegated = delegation && probe.dns !== 'correct' ? await this.prober.delegated(delegation) : undefined;
    return {
      originBlocked: false,
      dns: probe.dns,
      problem: probe.problem,
      served: served?.outcome,
      ...(delegated ? { delegated } : {}),
    };
  }

  dns(hostname: string): Promise<DnsObservation | 'lookup_failed'> {
    return this.prober.probe(hostname).then(
      (probe) => probe.dns,
      () => 'lookup_failed' as const,
    );
  }
}

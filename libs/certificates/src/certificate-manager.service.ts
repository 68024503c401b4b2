import { ActorClient } from '@app/actors';
import { Bus } from '@app/bus';
import { DnsProber, DnsResolver, climbCaa } from '@app/dns';
import { evaluateCaa } from '@app/domain-model';
import { DomainError, publishEdgeInvalidation } from '@app/kernel';
import { Injectable, Logger } from '@nestjs/common';
import { AcmeIssuer } from './acme-issuer.service';
import { CertificateRepository } from './certificate.repository';
import { classifyIssuanceError } from './issuance-error';

/** What the domain actor is told when an order ends (the `certificate` command of libs/domains). */
export type CertificateResult =
  | { type: 'certificate'; result: 'issued'; expiresAt: string }
  | { type: 'certificate'; result: 'failed'; reason: string }
  | { type: 'certificate'; result: 'deferred'; reason: string; retryAt: string };

/**
 * Orders certificates for the domains of this node's shards, one order per domain at a time, in
 * the background; the outcome goes back to the domain's actor as a command. CAA is checked first:
 * a refusal we can predict costs no order at the CA.
 */
@Injectable()
export class CertificateManager {
  private readonly logger = new Logger(CertificateManager.name);
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly issuer: AcmeIssuer,
    private readonly certificates: CertificateRepository,
    private readonly resolver: DnsResolver,
    private readonly prober: DnsProber,
    private readonly actors: ActorClient,
    private readonly bus: Bus,
  ) {}

  /**
   * Starts an order unless one is already running for the domain. A `twin` (the www name of a
   * `redirectWww` domain) is named in the certificate too, but only when its DNS already points at the
   * edge: HTTP-01 must pass for every name, and a twin the customer never set up must not sink the order.
   */
  request(domain: { id: string; hostname: string; twin?: string }): void {
    if (this.inFlight.has(domain.id)) return;
    this.inFlight.add(domain.id);
    void this.order(domain)
      .catch((err: unknown) => this.logger.error({ err, domainId: domain.id }, 'Certificate order crashed'))
      .finally(() => this.inFlight.delete(domain.id));
  }

  ordersInFlight(): number {
    return this.inFlight.size;
  }

  private async order(domain: { id: string; hostname: string; twin?: string }): Promise<void> {
    const caa = evaluateCaa(await climbCaa(this.resolver, domain.hostname).catch(() => []));
    if (caa.relevantName && !caa.authorizes.letsencrypt && !caa.authorizes.google) {
      const reason = `CAA records on ${caa.relevantName} (${caa.records.join('; ')}) allow neither Let's Encrypt nor Google Trust Services`;
      return this.report(domain, { type: 'certificate', result: 'failed', reason });
    }
    let issued;
    try {
      issued = await this.issuer.issue([domain.hostname, ...(await this.reachableTwin(domain.twin))]);
    } catch (error) {
      const failure = classifyIssuanceError(error instanceof Error ? error.message : String(error), new Date());
      this.logger.warn({ domainId: domain.id, hostname: domain.hostname, failure }, 'Certificate order failed');
      if (failure.kind === 'refused')
        return this.report(domain, { type: 'certificate', result: 'failed', reason: failure.reason });
      if (failure.kind === 'rate_limited') {
        const retryAt = failure.retryAt.toISOString();
        return this.report(domain, { type: 'certificate', result: 'deferred', reason: failure.reason, retryAt });
      }
      return; // transient: the next probe tries again
    }
    await this.certificates.save(domain.id, domain.hostname, issued);
    publishEdgeInvalidation(this.bus, domain.hostname);
    await this.report(domain, { type: 'certificate', result: 'issued', expiresAt: issued.notAfter.toISOString() });
  }

  private async reachableTwin(twin: string | undefined): Promise<string[]> {
    if (!twin) return [];
    const probe = await this.prober.probe(twin).catch(() => undefined);
    return probe?.dns === 'correct' ? [twin] : [];
  }

  private async report(domain: { id: string; hostname: string }, result: CertificateResult): Promise<void> {
    try {
      await this.actors.ask('domain', domain.id, result);
      // After the commit: the API's cached view of the domain (certificate fields) is now stale.
      publishEdgeInvalidation(this.bus, domain.hostname);
    } catch (error) {
      // Deleted while the order ran: its certificate must not outlive it.
      if (error instanceof DomainError && error.code === 'not_found') await this.certificates.remove(domain.id);
      else throw error;
    }
  }
}

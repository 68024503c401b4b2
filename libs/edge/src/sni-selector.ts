import { Injectable, Logger } from '@nestjs/common';
import type { SecureContext } from 'node:tls';
import { CertificateStore } from './certificate.store';
import { EdgeMetrics } from './edge.metrics';
import { parseHost } from './host';
import { RouteStore } from './route.store';

type SniDone = (error: Error | null, context?: SecureContext) => void;
type Refusal = 'unknown_host' | 'no_certificate' | 'error';

/**
 * Chooses the certificate by SNI: the route of the name (a live domain, or the www twin of one
 * with `redirectWww`), then that domain's stored certificate. No route or no certificate fails
 * the handshake: the edge has no fallback certificate and never starts certificate work itself.
 * A certificate cached for the name is used without the route: requests are routed by Host anyway,
 * and a handshake then costs no database read however many hostnames rotate through the cache.
 */
@Injectable()
export class SniSelector {
  private readonly logger = new Logger(SniSelector.name);
  private readonly metrics = EdgeMetrics.get();

  constructor(
    private readonly routes: RouteStore,
    private readonly certificates: CertificateStore,
  ) {}

  readonly callback = (servername: string, done: SniDone): void => {
    const host = parseHost(servername);
    if (!host) return this.refuse(done, 'unknown_host', servername);
    this.choose(host).then(
      (chosen) => {
        if (typeof chosen === 'string') return this.refuse(done, chosen, host);
        this.metrics.sni.inc({ result: 'certificate' });
        done(null, chosen);
      },
      (error: unknown) => {
        this.logger.error({ err: error, servername: host }, 'Certificate lookup failed');
        this.refuse(done, 'error', host);
      },
    );
  };

  private async choose(host: string): Promise<SecureContext | Refusal> {
    const cached = this.certificates.cachedContext(host);
    if (cached) return cached;
    const route = await this.routes.get(host);
    if (!route) return 'unknown_host';
    return (await this.certificates.contextFor(route, host)) ?? 'no_certificate';
  }

  private refuse(done: SniDone, result: Refusal, servername: string): void {
    this.metrics.sni.inc({ result });
    done(new Error(`No certificate for ${servername} (${result})`));
  }
}

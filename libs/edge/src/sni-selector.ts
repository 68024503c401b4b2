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
 * with `redirectWww`), then that domain's certificate, both from the edge's replicated copy: no
 * I/O, so a handshake never waits on a database or on another handshake. No route or no
 * certificate fails the handshake: the edge has no fallback certificate and never starts
 * certificate work itself.
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
    let chosen: SecureContext | Refusal;
    try {
      chosen = this.choose(host);
    } catch (error) {
      this.logger.error({ err: error, servername: host }, 'Certificate lookup failed');
      return this.refuse(done, 'error', host);
    }
    if (typeof chosen === 'string') return this.refuse(done, chosen, host);
    this.metrics.sni.inc({ result: 'certificate' });
    done(null, chosen);
  };

  private choose(host: string): SecureContext | Refusal {
    const route = this.routes.now(host);
    if (!route) return 'unknown_host';
    return this.certificates.contextFor(route, host) ?? 'no_certificate';
  }

  private refuse(done: SniDone, result: Refusal, servername: string): void {
    this.metrics.sni.inc({ result });
    done(new Error(`No certificate for ${servername} (${result})`));
  }
}

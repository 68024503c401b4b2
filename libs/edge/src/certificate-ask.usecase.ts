import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { certificateAllowed } from './edge-route';
import { parseHost } from './host';
import { RouteStore } from './route.store';

/** May a TLS terminator in front of the edge (Caddy) get a certificate for this hostname? */
@Injectable()
export class CertificateAsk {
  constructor(private readonly routes: RouteStore) {}

  async check(domain: string): Promise<{ allowed: true; hostname: string }> {
    const hostname = parseHost(domain);
    const route = hostname ? await this.routes.get(hostname) : undefined;
    if (!hostname || !certificateAllowed(route)) {
      throw new DomainError('not_found', 'No connected domain with DNS pointing at the edge has this hostname');
    }
    return { allowed: true, hostname };
  }
}

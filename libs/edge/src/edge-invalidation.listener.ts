import { Bus } from '@app/bus';
import { EDGE_INVALIDATE_SUBJECT, invalidatedHostname } from '@app/kernel';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CertificateStore } from './certificate.store';
import { RouteStore } from './route.store';

/** Drops cached routes and certificates when the bus says a hostname changed. */
@Injectable()
export class EdgeInvalidationListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(EdgeInvalidationListener.name);
  private unsubscribe?: () => void;

  constructor(
    private readonly bus: Bus,
    private readonly routes: RouteStore,
    private readonly certificates: CertificateStore,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(EDGE_INVALIDATE_SUBJECT, (payload) => {
      const hostname = invalidatedHostname(payload);
      if (!hostname) return void this.logger.warn({ payload }, 'Ignored a malformed edge invalidation');
      this.routes.invalidate(hostname);
      this.certificates.invalidate(hostname);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}

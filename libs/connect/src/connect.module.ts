import { APP_CONFIG, AppConfig } from '@app/config';
import { edgeSettingsOf } from '@app/kernel';
import { DnsModule, DnsResolver, climbCaa } from '@app/dns';
import { caaIssuersWarning } from '@app/hostname-rules';
import { DomainRepository, DomainsApiModule } from '@app/domains';
import { Module } from '@nestjs/common';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { ConnectInstructionsService } from './connect-instructions.service';
import { DomainConnectClient } from './domain-connect.client';
import { HttpsGetter } from './https-get';
import { InstructionsController } from './instructions.controller';
import { ProviderDetector } from './provider-detector.service';

/** Short: the instructions wait for these lookups, and a slow provider must not hold the customer. */
const DOMAIN_CONNECT_TIMEOUT_MS = 3_000;

/** The DNS provider detector alone (through DNS_RESOLVERS), for features that only detect providers. */
@Module({
  imports: [DnsModule],
  providers: [
    {
      provide: ProviderDetector,
      inject: [DnsResolver],
      useFactory: (resolver: DnsResolver) => new ProviderDetector(resolver),
    },
  ],
  exports: [ProviderDetector],
})
class ProviderDetectionModule {}

/** GET /v1/domains/{id}/instructions: provider detection and Domain Connect (api, standalone). */
@Module({
  imports: [DnsModule, DomainsApiModule, ProviderDetectionModule],
  controllers: [InstructionsController],
  providers: [
    {
      provide: DomainConnectClient,
      inject: [DnsResolver, APP_CONFIG],
      useFactory: (resolver: DnsResolver, c: AppConfig) => {
        const ca = c.domainConnect.caFile ? [readFileSync(c.domainConnect.caFile, 'utf8')] : undefined;
        const http = new HttpsGetter(resolver, {
          timeoutMs: DOMAIN_CONNECT_TIMEOUT_MS,
          // An `ca` option replaces Node's bundled roots, so the extra CA is added to them.
          ca: ca && [...rootCertificates, ...ca],
          allowCidrs: c.outboundAllowCidrs,
        });
        return new DomainConnectClient(resolver, http, {
          providerId: c.domainConnect.providerId,
          serviceId: c.domainConnect.serviceId,
        });
      },
    },
    {
      provide: ConnectInstructionsService,
      inject: [DomainRepository, ProviderDetector, DomainConnectClient, DnsResolver, APP_CONFIG],
      useFactory: (
        domains: DomainRepository,
        detector: ProviderDetector,
        dc: DomainConnectClient,
        resolver: DnsResolver,
        c: AppConfig,
      ) =>
        new ConnectInstructionsService(domains, detector, dc, {
          edge: edgeSettingsOf(c),
          // The CAA fix, when the hostname's CAA allows none of our CAs: a failed lookup says nothing.
          caaProblem: async (hostname) => caaIssuersWarning(await climbCaa(resolver, hostname), c.acmeIssuers)?.message,
          providerId: c.domainConnect.providerId,
          serviceId: c.domainConnect.serviceId,
          signer: c.domainConnect.privateKeyPem
            ? { keyHost: c.domainConnect.keyHost, privateKey: createPrivateKey(c.domainConnect.privateKeyPem) }
            : undefined,
        }),
    },
  ],
  exports: [ConnectInstructionsService],
})
export class ConnectApiModule {}

import { ChallengeDnsModule } from '@app/challenge-dns';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DnsModule, DnsResolver } from '@app/dns';
import { DynamicModule, Module } from '@nestjs/common';
import { AcmeChallengeStore } from './acme-challenge.store';
import { CertificateAsk } from './certificate-ask.usecase';
import { CertificateStore } from './certificate.store';
import { EdgeAskController } from './edge-ask.controller';
import { EdgeRouter } from './edge-router';
import { EdgeServers } from './edge-servers.service';
import { EDGE_DEFAULTS, EDGE_OPTIONS, EdgeOptions, edgeOptions } from './edge.options';
import { OriginProxy } from './origin-proxy';
import { PlainHttpHandler } from './plain-http.handler';
import { edgeReplicaProviders } from './replica/edge-replica.providers';
import { ReplicatedRoutes } from './replica/replicated-routes';
import { RouteStore } from './route.store';
import { SAFE_LOOKUP, createSafeLookup } from './safe-lookup';
import { SniSelector } from './sni-selector';
import { TrafficHandler } from './traffic.handler';
import { WebSocketProxy } from './websocket-proxy';

/**
 * The edge data plane: HTTPS with SNI certificates and HTTP (ACME challenges, redirects) on
 * EDGE_HTTPS_PORT / EDGE_HTTP_PORT, proxying or redirecting to origins; `/edge/ask` on PORT.
 * `overrides` tune timeouts, limits and caches (defaults in edge.options.ts).
 */
@Module({})
export class EdgeModule {
  static forRoot(overrides: Partial<EdgeOptions> = {}): DynamicModule {
    return {
      module: EdgeModule,
      // The challenge zone's DNS listener (when ACME_CHALLENGE_ZONE is set) runs wherever the edge does.
      imports: [
        DnsModule,
        ChallengeDnsModule.forRoot({ listenHost: overrides.listenHost ?? EDGE_DEFAULTS.listenHost }),
      ],
      controllers: [EdgeAskController],
      providers: [
        { provide: EDGE_OPTIONS, inject: [APP_CONFIG], useFactory: (c: AppConfig) => edgeOptions(c, overrides) },
        {
          provide: SAFE_LOOKUP,
          inject: [DnsResolver, EDGE_OPTIONS],
          useFactory: (resolver: DnsResolver, options: EdgeOptions) => createSafeLookup(resolver, options.allowCidrs),
        },
        ...edgeReplicaProviders('inProcess'),
        ReplicatedRoutes,
        RouteStore,
        CertificateStore,
        AcmeChallengeStore,
        EdgeRouter,
        OriginProxy,
        WebSocketProxy,
        TrafficHandler,
        PlainHttpHandler,
        SniSelector,
        CertificateAsk,
        EdgeServers,
      ],
      exports: [RouteStore, CertificateStore, ReplicatedRoutes, EdgeServers],
    };
  }
}

import { APP_CONFIG, AppConfig } from '@app/config';
import { edgeSettingsOf } from '@app/kernel';
import { Global, Module } from '@nestjs/common';
import { DnsDiagnostics } from './dns-diagnostics';
import { DnsProber } from './dns-prober';
import { DnsResolver } from './dns-resolver';
import { OriginPreflight } from './origin-preflight';
import { ServedCertificateProbe } from './served-certificate.probe';

/** DNS through DNS_RESOLVERS: the resolver, the edge prober, the origin SSRF preflight and the served-certificate probe. */
@Global()
@Module({
  providers: [
    {
      provide: DnsResolver,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new DnsResolver({ servers: c.dnsResolvers, timeoutMs: c.dnsTimeoutMs }),
    },
    {
      provide: DnsDiagnostics,
      inject: [DnsResolver, APP_CONFIG],
      useFactory: (r: DnsResolver, c: AppConfig) =>
        new DnsDiagnostics(r, {
          edge: edgeSettingsOf(c),
          authoritativePort: c.dnsAuthoritativePort,
          timeoutMs: c.dnsTimeoutMs,
          allowCidrs: c.outboundAllowCidrs,
        }),
    },
    {
      provide: DnsProber,
      inject: [DnsResolver, APP_CONFIG, DnsDiagnostics],
      useFactory: (r: DnsResolver, c: AppConfig, d: DnsDiagnostics) => new DnsProber(r, edgeSettingsOf(c), d),
    },
    {
      provide: OriginPreflight,
      inject: [DnsResolver, APP_CONFIG],
      useFactory: (r: DnsResolver, c: AppConfig) => new OriginPreflight(r, c.outboundAllowCidrs),
    },
    {
      provide: ServedCertificateProbe,
      inject: [DnsResolver, APP_CONFIG],
      useFactory: (r: DnsResolver, c: AppConfig) => new ServedCertificateProbe(r, c.probeTlsPort),
    },
  ],
  exports: [DnsResolver, DnsDiagnostics, DnsProber, OriginPreflight, ServedCertificateProbe],
})
export class DnsModule {}

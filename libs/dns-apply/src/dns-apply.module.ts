import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainsApiModule } from '@app/domains';
import { Module } from '@nestjs/common';
import { DnsApplyController } from './dns-apply.controller';
import { DnsApply } from './dns-apply.usecase';
import { DNS_PROVIDERS } from './dns-provider';
import { CloudflareProvider } from './providers/cloudflare.provider';
import { DigitalOceanProvider } from './providers/digitalocean.provider';

/** POST /v1/domains/{id}/dns/apply with the customer's own DNS token (api, standalone). */
@Module({
  imports: [DomainsApiModule],
  controllers: [DnsApplyController],
  providers: [
    DnsApply,
    {
      provide: DNS_PROVIDERS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => [
        new CloudflareProvider(config.cloudflareApiUrl),
        new DigitalOceanProvider(config.digitaloceanApiUrl),
      ],
    },
  ],
})
export class DnsApplyModule {}

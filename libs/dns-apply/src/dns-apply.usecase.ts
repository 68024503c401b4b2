import { APP_CONFIG, AppConfig } from '@app/config';
import { edgeSettingsOf } from '@app/kernel';
import { DomainCommands, DomainRepository, DomainView, requiredDnsRecords } from '@app/domains';
import { Inject, Injectable } from '@nestjs/common';
import { ApplyResult, DNS_PROVIDERS, DnsProvider, DnsProviderId } from './dns-provider';

export interface DnsApplyResponse {
  applied: { provider: DnsProviderId } & ApplyResult;
  domain: DomainView;
}

/**
 * Writes the domain's records at the customer's DNS provider with their token, then re-checks the domain
 * so the answer shows the result. A subdomain gets a CNAME to the edge. An apex gets a CNAME too where the
 * provider flattens it (Cloudflare: it keeps working if the edge's addresses change, and matches the
 * connect instructions), else A records to EDGE_IPV4 (DigitalOcean refuses a CNAME at the apex).
 */
@Injectable()
export class DnsApply {
  constructor(
    private readonly domains: DomainRepository,
    private readonly commands: DomainCommands,
    @Inject(DNS_PROVIDERS) private readonly providers: DnsProvider[],
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async apply(workspaceId: string, id: string, providerId: DnsProviderId, token: string): Promise<DnsApplyResponse> {
    const record = await this.domains.get(workspaceId, id);
    const provider = this.providers.find((p) => p.id === providerId);
    if (!provider) throw new Error(`No DNS provider adapter for ${providerId}`);
    const edge = edgeSettingsOf(this.config);
    // The traffic records only (SPEC 4.2 rule 4: A, AAAA, CNAME and ALIAS at the hostname itself).
    const desired = requiredDnsRecords(record.hostname, record.apex && !provider.flattensApexCname, edge).map(
      ({ type, name, value, ttl }) => ({ type, name, value, ttl }),
    );
    const result = await provider.apply(record.hostname, desired, token);
    const { domain } = await this.commands.check(workspaceId, id);
    return { applied: { provider: provider.id, ...result }, domain };
  }
}

import { Logger } from '@nestjs/common';
import { DnsResolver } from '@app/dns';
import { BoundedCache, Clock } from '@app/kernel';
import { DomainConnectDiscovery, discoveryPrefix, parseSettings } from './domain-connect';
import { HttpsGetter } from './https-get';

export interface DomainConnectClientOptions {
  /** Our template's ids, for the template-support check. */
  providerId: string;
  serviceId: string;
  cacheTtlMs?: number;
  failureTtlMs?: number;
  clock?: Clock;
}

/**
 * Domain Connect discovery for a root domain: the `_domainconnect` TXT record, the provider's
 * settings document, and whether it has adopted our template. Never throws; cached briefly.
 */
export class DomainConnectClient {
  private readonly cache: BoundedCache<DomainConnectDiscovery>;
  private readonly failureTtlMs: number;
  private readonly cacheTtlMs: number;
  private readonly logger = new Logger(DomainConnectClient.name);

  constructor(
    private readonly resolver: DnsResolver,
    private readonly http: HttpsGetter,
    private readonly options: DomainConnectClientOptions,
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 5 * 60_000;
    this.cache = new BoundedCache({ maxEntries: 10_000, ttlMs: this.cacheTtlMs, clock: options.clock });
    this.failureTtlMs = options.failureTtlMs ?? 30_000;
  }

  discover(domain: string): Promise<DomainConnectDiscovery> {
    return this.cache.getOrLoad(
      domain,
      async () => {
        const result = await this.lookup(domain);
        if (!result.supported) this.logger.debug(`Domain Connect for ${domain}: ${result.reason}`);
        return result;
      },
      (result) => (!result.supported && transient(result.reason) ? this.failureTtlMs : this.cacheTtlMs),
    );
  }

  private async lookup(domain: string): Promise<DomainConnectDiscovery> {
    let records: string[];
    try {
      records = await this.resolver.txt(`_domainconnect.${domain}`);
    } catch {
      return { supported: false, reason: 'lookup_failed' };
    }
    const prefix = records.map(discoveryPrefix).find((value) => value !== undefined);
    if (records.length === 0) return { supported: false, reason: 'no_discovery_record' };
    if (!prefix) return { supported: false, reason: 'settings_unavailable' };

    let settingsBody: unknown;
    try {
      const answer = await this.http.get(`https://${prefix}/v2/${encodeURIComponent(domain)}/settings`);
      if (answer.status !== 200) return { supported: false, reason: 'settings_unavailable' };
      settingsBody = JSON.parse(answer.body);
    } catch {
      return { supported: false, reason: 'settings_unavailable' };
    }
    const settings = parseSettings(settingsBody);
    if (!settings) return { supported: false, reason: 'settings_unavailable' };
    if (!settings.urlSyncUX) return { supported: false, reason: 'no_sync_support', settings };

    const { providerId, serviceId } = this.options;
    const templateUrl =
      `${settings.urlAPI}/v2/domainTemplates/providers/${encodeURIComponent(providerId)}` +
      `/services/${encodeURIComponent(serviceId)}`;
    try {
      const answer = await this.http.get(templateUrl);
      if (answer.status === 200) return { supported: true, settings };
      if (answer.status === 404) return { supported: false, reason: 'template_not_adopted', settings };
      return { supported: false, reason: 'lookup_failed', settings };
    } catch {
      return { supported: false, reason: 'lookup_failed', settings };
    }
  }
}

/** Outcomes that may change soon (outages) are cached more briefly than settled answers. */
const transient = (reason: string) => reason === 'lookup_failed' || reason === 'settings_unavailable';

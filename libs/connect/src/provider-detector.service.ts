import { DnsResolver } from '@app/dns';
import { BoundedCache, Clock } from '@app/kernel';
import { detectProvider } from './detect-provider';
import { PROVIDER_CATALOG } from './provider-catalog';
import { ProviderProfile } from './provider-profile';
import { namesUpToRegistrable, registrableDomain } from './registrable-domain';

export interface ProviderDetection {
  /** The zone whose NS records were found (the registrable domain unless a subzone is delegated). */
  zone: string;
  nameservers: string[];
  /** Undefined when no catalog entry matches, or the lookup failed. */
  provider?: ProviderProfile;
  /** The resolver could not answer: the provider is unknown, not absent. */
  lookupFailed: boolean;
}

export interface ProviderDetectorOptions {
  cacheTtlMs?: number;
  /** Failures are cached more briefly so a resolver hiccup does not stick. */
  failureTtlMs?: number;
  clock?: Clock;
  catalog?: readonly ProviderProfile[];
}

/**
 * Finds the DNS provider of a hostname: the first name with NS records walking up from the
 * hostname to its registrable domain (the zone cut), matched against the catalog. Never throws.
 */
export class ProviderDetector {
  private readonly cache: BoundedCache<ProviderDetection>;
  private readonly catalog: readonly ProviderProfile[];
  private readonly failureTtlMs: number;
  private readonly cacheTtlMs: number;

  constructor(
    private readonly resolver: DnsResolver,
    options: ProviderDetectorOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 5 * 60_000;
    this.cache = new BoundedCache({ maxEntries: 10_000, ttlMs: this.cacheTtlMs, clock: options.clock });
    this.failureTtlMs = options.failureTtlMs ?? 15_000;
    this.catalog = options.catalog ?? PROVIDER_CATALOG;
  }

  detect(hostname: string): Promise<ProviderDetection> {
    return this.cache.getOrLoad(
      hostname.toLowerCase(),
      () => this.lookup(hostname),
      (result) => (result.lookupFailed ? this.failureTtlMs : this.cacheTtlMs),
    );
  }

  private async lookup(hostname: string): Promise<ProviderDetection> {
    const top = registrableDomain(hostname);
    try {
      for (const name of namesUpToRegistrable(hostname)) {
        // A name holding a CNAME cannot be a zone cut; its NS answer would be the target's.
        if (name !== top && (await this.resolver.cname(name)).length > 0) continue;
        const nameservers = await this.resolver.ns(name);
        if (nameservers.length > 0) {
          return { zone: name, nameservers, provider: detectProvider(nameservers, this.catalog), lookupFailed: false };
        }
      }
      return { zone: top, nameservers: [], lookupFailed: false };
    } catch {
      return { zone: top, nameservers: [], lookupFailed: true };
    }
  }
}

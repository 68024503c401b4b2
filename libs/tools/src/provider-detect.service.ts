import { ProviderDetector, registrableDomain } from '@app/connect';
import { normalizeLookupHostname } from '@app/hostname-rules';
import { canonicalHostname, DomainError, arrayOf, bool, described, Infer, obj, str } from '@app/kernel';
import { Injectable } from '@nestjs/common';

export const providerDetectResultSchema = obj({
  hostname: str(),
  zone: str('Where the NS records were found: the registrable domain, or a delegated sub-zone'),
  nameservers: arrayOf(str()),
  provider: described(
    obj({ id: str(), name: str(), detected: bool, dashboardUrl: str() }, ['dashboardUrl']),
    'As in connect instructions: `unknown` and detected false when no catalog entry matches',
  ),
});
export type ProviderDetectResult = Infer<typeof providerDetectResultSchema>;

/** The provider detection tool: the connect instructions' NS walk and catalog, without a domain. */
@Injectable()
export class ProviderDetectTool {
  constructor(private readonly detector: ProviderDetector) {}

  async detect(input: string): Promise<ProviderDetectResult> {
    const hostname = normalizeLookupHostname(input);
    const found = await this.detector.detect(hostname);
    if (found.lookupFailed) {
      throw new DomainError(
        'service_unavailable',
        `Could not look up the nameservers of ${hostname}; try again in a few seconds`,
        { reason: 'dns_lookup_failed' },
      );
    }
    const { provider } = found;
    return {
      hostname,
      zone: found.zone,
      nameservers: found.nameservers.map(canonicalHostname).sort(),
      provider: provider
        ? {
            id: provider.id,
            name: provider.name,
            detected: true,
            dashboardUrl: provider.dashboardUrl.replaceAll('{domain}', registrableDomain(hostname)),
          }
        : { id: 'unknown', name: 'Unknown DNS provider', detected: false },
    };
  }
}

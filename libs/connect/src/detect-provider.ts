import { canonicalHostname } from '@app/kernel';
import { PROVIDER_CATALOG } from './provider-catalog';
import { ProviderProfile } from './provider-profile';

/** Whether one nameserver hostname belongs to the provider. */
export function nameserverMatches(profile: ProviderProfile, nameserver: string): boolean {
  const host = canonicalHostname(nameserver);
  if (profile.nameservers.suffixes.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return true;
  const labels = host.split('.');
  return (profile.nameservers.labelPrefixes ?? []).some((prefix) => labels.some((label) => label.startsWith(prefix)));
}

/**
 * The provider that serves a zone, from its NS hostnames: the catalog entry matching the most
 * nameservers (a zone mid-migration may list two providers; the majority serves most answers).
 * Ties go to catalog order. Undefined when none matches.
 */
export function detectProvider(
  nameservers: readonly string[],
  catalog: readonly ProviderProfile[] = PROVIDER_CATALOG,
): ProviderProfile | undefined {
  let best: ProviderProfile | undefined;
  let bestCount = 0;
  for (const profile of catalog) {
    const count = nameservers.filter((ns) => nameserverMatches(profile, ns)).length;
    if (count > bestCount) {
      best = profile;
      bestCount = count;
    }
  }
  return best;
}

export function providerById(id: string, catalog: readonly ProviderProfile[] = PROVIDER_CATALOG) {
  return catalog.find((profile) => profile.id === id);
}

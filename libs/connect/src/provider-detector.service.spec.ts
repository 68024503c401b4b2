import { DnsLookupError, DnsResolver } from '@app/dns';
import { ProviderDetector } from './provider-detector.service';

/** DNS answers by name and type, counting queries; `fail` makes every query a resolver failure. */
function fakeDns(answers: Record<string, string[]>) {
  const state = { queries: [] as string[], fail: false };
  const query = (type: string) => async (name: string) => {
    state.queries.push(`${type} ${name}`);
    if (state.fail) throw new DnsLookupError(name, type, 'ETIMEOUT');
    return answers[`${type} ${name}`] ?? [];
  };
  const resolver = { ns: query('NS'), cname: query('CNAME') } as unknown as DnsResolver;
  return { resolver, state };
}

describe('ProviderDetector', () => {
  it('walks up from the hostname to the first name with NS records', async () => {
    const { resolver, state } = fakeDns({ 'NS example.com': ['ada.ns.cloudflare.com'] });
    const result = await new ProviderDetector(resolver).detect('a.b.example.com');
    expect(result).toMatchObject({ zone: 'example.com', lookupFailed: false, nameservers: ['ada.ns.cloudflare.com'] });
    expect(result.provider?.id).toBe('cloudflare');
    expect(state.queries).toEqual([
      'CNAME a.b.example.com',
      'NS a.b.example.com',
      'CNAME b.example.com',
      'NS b.example.com',
      'NS example.com',
    ]);
  });

  it('stops at a delegated subzone, and skips names that are CNAMEs', async () => {
    const { resolver } = fakeDns({
      'CNAME shop.eu.example.com': ['edge.saas.net'],
      'NS shop.eu.example.com': ['ns1.edge-dns.net'],
      'NS eu.example.com': ['ns1.digitalocean.com'],
      'NS example.com': ['ns51.domaincontrol.com'],
    });
    const result = await new ProviderDetector(resolver).detect('shop.eu.example.com');
    expect(result.zone).toBe('eu.example.com');
    expect(result.provider?.id).toBe('digitalocean');
  });

  it('unknown nameservers: no provider, not a failure', async () => {
    const { resolver } = fakeDns({ 'NS example.com': ['ns1.corp.net'] });
    expect(await new ProviderDetector(resolver).detect('example.com')).toEqual({
      zone: 'example.com',
      nameservers: ['ns1.corp.net'],
      provider: undefined,
      lookupFailed: false,
    });
  });

  it('caches answers for the TTL, failures more briefly', async () => {
    let now = 0;
    const { resolver, state } = fakeDns({ 'NS example.com': ['ns1.linode.com'] });
    const detector = new ProviderDetector(resolver, {
      cacheTtlMs: 60_000,
      failureTtlMs: 5_000,
      clock: { now: () => now },
    });
    await detector.detect('example.com');
    await detector.detect('example.com');
    expect(state.queries).toHaveLength(1);
    now = 60_001;
    await detector.detect('example.com');
    expect(state.queries).toHaveLength(2);

    state.fail = true;
    const failed = await detector.detect('other.com');
    expect(failed).toEqual({ zone: 'other.com', nameservers: [], lookupFailed: true });
    state.fail = false;
    await detector.detect('other.com');
    expect(state.queries.filter((q) => q === 'NS other.com')).toHaveLength(1);
    now += 5_001;
    expect((await detector.detect('other.com')).lookupFailed).toBe(false);
  });

  it('concurrent detections of one hostname share one lookup', async () => {
    const { resolver, state } = fakeDns({ 'NS example.com': ['ns1.hover.com'] });
    const detector = new ProviderDetector(resolver);
    await Promise.all([detector.detect('example.com'), detector.detect('example.com'), detector.detect('example.com')]);
    expect(state.queries).toHaveLength(1);
  });
});

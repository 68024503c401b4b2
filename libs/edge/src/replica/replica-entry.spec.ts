import { ReplicaEntry, hostnameOfKey, parseReplicaEntry, replicaKey, routeOf } from './replica-entry';

const entry = (hostname: string, extra: Partial<ReplicaEntry> = {}): ReplicaEntry => ({
  domainId: `dom_${hostname}`,
  hostname,
  status: 'verified',
  monitorStatus: 'active_ssl',
  mode: 'proxy',
  originUrl: 'https://origin.example',
  keepHost: false,
  redirectWww: false,
  redirectStatus: 301,
  ...extra,
});

describe('replica entries', () => {
  it.each(['shop.example.com', '*.example.com', 'xn--bcher-kva.example'])('keys %s reversibly', (hostname) => {
    expect(replicaKey(hostname)).toMatch(/^[-/_=.a-zA-Z0-9]+$/);
    expect(hostnameOfKey(replicaKey(hostname))).toBe(hostname);
  });

  it('refuses malformed values field by field', () => {
    const good = JSON.stringify(entry('a.example.com', { certificate: { chainPem: 'x', keySealed: 'y' } }));
    expect(parseReplicaEntry(good)?.hostname).toBe('a.example.com');
    for (const bad of ['nope', 'null', '{}', good.replace('"proxy"', '"tunnel"'), good.replace('"y"', '7')]) {
      expect(parseReplicaEntry(bad)).toBeUndefined();
    }
  });

  const table = new Map(
    [entry('example.com', { redirectWww: true }), entry('plain.com'), entry('*.wild.com'), entry('exact.wild.com')].map(
      (e) => [e.hostname, e],
    ),
  );
  const route = (hostname: string) => routeOf((name) => table.get(name), hostname);

  it.each([
    ['example.com', { hostname: 'example.com', twin: false }],
    ['www.example.com', { hostname: 'example.com', twin: true }],
    ['www.plain.com', undefined],
    ['a.wild.com', { hostname: 'a.wild.com', wildcard: '*.wild.com', twin: false }],
    ['exact.wild.com', { hostname: 'exact.wild.com', twin: false }],
    ['a.b.wild.com', undefined],
    ['wild.com', undefined],
  ])('routes %s', (hostname, expected) => {
    const found = route(hostname);
    if (expected === undefined) expect(found).toBeUndefined();
    else expect(found).toMatchObject(expected);
  });
});

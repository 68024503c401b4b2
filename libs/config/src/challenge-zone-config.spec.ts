import { challengeZoneConfig } from './challenge-zone-config';

const EDGE = 'edge.example.net';

describe('challengeZoneConfig', () => {
  it('is off without ACME_CHALLENGE_ZONE', () => {
    expect(challengeZoneConfig({}, EDGE)).toBeUndefined();
  });

  it('defaults the nameservers to the edge name, port 53 and 200 queries a second', () => {
    expect(challengeZoneConfig({ ACME_CHALLENGE_ZONE: 'ACME.Example.NET.' }, EDGE)).toEqual({
      zone: 'acme.example.net',
      nameservers: [EDGE],
      port: 53,
      queriesPerSecond: 200,
    });
  });

  it('reads every setting', () => {
    const config = challengeZoneConfig(
      {
        ACME_CHALLENGE_ZONE: 'acme.example.net',
        ACME_CHALLENGE_NAMESERVERS: 'ns1.example.net, ns2.example.net',
        ACME_CHALLENGE_DNS_PORT: '5353',
        ACME_CHALLENGE_DNS_QPS: '50',
      },
      EDGE,
    );
    expect(config).toEqual({
      zone: 'acme.example.net',
      nameservers: ['ns1.example.net', 'ns2.example.net'],
      port: 5353,
      queriesPerSecond: 50,
    });
  });

  it.each([
    [{ ACME_CHALLENGE_DNS_PORT: '53' }, 'ACME_CHALLENGE_DNS_PORT is set but ACME_CHALLENGE_ZONE is not'],
    [{ ACME_CHALLENGE_ZONE: 'acme' }, 'ACME_CHALLENGE_ZONE must be a fully qualified hostname'],
    [{ ACME_CHALLENGE_ZONE: 'example.net' }, 'ACME_CHALLENGE_ZONE must not contain EDGE_CNAME_TARGET'],
    [
      { ACME_CHALLENGE_ZONE: 'acme.example.net', ACME_CHALLENGE_NAMESERVERS: 'ns1.example.net,,x' },
      'ACME_CHALLENGE_NAMESERVERS must list hostnames without empty items',
    ],
    [
      { ACME_CHALLENGE_ZONE: 'acme.example.net', ACME_CHALLENGE_NAMESERVERS: 'ns1' },
      'ACME_CHALLENGE_NAMESERVERS must be a fully qualified hostname',
    ],
    [{ ACME_CHALLENGE_ZONE: 'acme.example.net', ACME_CHALLENGE_DNS_PORT: '0' }, 'ACME_CHALLENGE_DNS_PORT must be'],
  ])('refuses %j', (env, message) => {
    expect(() => challengeZoneConfig(env, EDGE)).toThrow(message);
  });
});

import { DnsZones } from './dns-server';

export const EDGE_TARGET = 'edge.saas-test.net';
export const EDGE_IP = '203.0.113.10';
export const ORIGIN_URL = 'https://origin.saas-test.net';

/** Fixture zones: an edge, a public origin, right and wrong customer DNS, CAA, a private origin. */
export function domainZones(): DnsZones {
  return {
    [EDGE_TARGET]: [{ type: 'A', data: EDGE_IP }],
    'origin.saas-test.net': [{ type: 'A', data: '93.184.216.34' }],
    'internal.saas-test.net': [{ type: 'A', data: '10.1.2.3' }],
    'mixed.saas-test.net': [
      { type: 'A', data: '93.184.216.35' },
      { type: 'A', data: '192.168.1.1' },
    ],
    'other-host.saas-test.net': [{ type: 'A', data: '198.51.100.7' }],
    'shop.customer-a.com': [{ type: 'CNAME', data: EDGE_TARGET }],
    'wrong.customer-a.com': [{ type: 'CNAME', data: 'other-host.saas-test.net' }],
    'customer-b.com': [{ type: 'A', data: EDGE_IP }],
    'caa-blocked.com': [{ type: 'CAA', data: { flags: 0, tag: 'issue', value: 'digicert.com' } }],
    'shop.caa-blocked.com': [{ type: 'CNAME', data: EDGE_TARGET }],
    'caa-ok.com': [{ type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } }],
  };
}

/**
 * Environment for an app under test that resolves through the fixture DNS server. Its certificate
 * orders go to a closed loopback port standing in for Let's Encrypt (refused at once, shown on the
 * domain as ca_unavailable), never to the internet; the certificate tests bring Pebble.
 */
export function domainEnv(dnsAddress: string): Record<string, string> {
  return {
    DNS_RESOLVERS: dnsAddress,
    EDGE_CNAME_TARGET: EDGE_TARGET,
    EDGE_IPV4: EDGE_IP,
    ACME_DIRECTORY_URL: 'http://127.0.0.1:9/directory',
    ACME_ISSUER_NAME: 'letsencrypt',
    ACME_CAA_IDENTITIES: 'letsencrypt.org',
  };
}

import { loadConfig } from './app-config';
import { ConfigError } from './env-parsers';

const cluster = {
  DATABASE_URL: 'postgres://u@db/x',
  NATS_URL: 'nats://n:4222',
  SIGNING_SECRET: 's'.repeat(32),
  ENCRYPTION_KEY: 'e'.repeat(32),
};

describe('loadConfig', () => {
  it('runs standalone with zero configuration', () => {
    const config = loadConfig({}, 'standalone');
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      natsUrls: undefined,
      dataDir: './data',
      registrar: 'sandbox',
      payments: 'sandbox',
      logLevel: 'info',
      dnsResolvers: [],
      dnsTimeoutMs: 2_000,
      outboundAllowCidrs: [],
      migrateOnStart: true,
    });
  });

  it('parses every list and switch', () => {
    const config = loadConfig(
      {
        ...cluster,
        PORT: '8080',
        NATS_URL: 'nats://a:4222, nats://b:4222',
        DNS_RESOLVERS: '127.0.0.1:5353,[::1]:53,8.8.8.8',
        DNS_TIMEOUT_MS: '8000',
        EDGE_IPV4: '203.0.113.1,203.0.113.2',
        EDGE_CNAME_TARGET: 'Edge.Example.NET.',
        OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
        NODE_ID: 'node-0',
        MIGRATE_ON_START: 'false',
        REGISTRAR: 'namecheap',
        NAMECHEAP_API_USER: 'user',
        NAMECHEAP_API_KEY: 'key',
        NAMECHEAP_CLIENT_IP: '198.51.100.1',
      },
      'api',
    );
    expect(config.natsUrls).toEqual(['nats://a:4222', 'nats://b:4222']);
    expect(config.dnsResolvers).toEqual(['127.0.0.1:5353', '[::1]:53', '8.8.8.8']);
    expect(config.dnsTimeoutMs).toBe(8_000);
    expect(config.edgeIpv4).toEqual(['203.0.113.1', '203.0.113.2']);
    expect(config.edgeCnameTarget).toBe('edge.example.net');
    expect(config.nodeId).toBe('node-0');
    expect(config.migrateOnStart).toBe(false);
    expect(config.namecheap).toMatchObject({ apiUser: 'user', username: 'user', clientIp: '198.51.100.1' });
  });

  it.each([
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535 (got "70000")'],
    [{ PORT: '3.5' }, 'PORT must be an integer'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL'],
    [{ NATS_URL: 'http://x' }, 'NATS_URL must use nats:'],
    [{ DNS_RESOLVERS: 'dns.google' }, 'DNS_RESOLVERS must list resolvers'],
    [{ DNS_RESOLVERS: '127.0.0.1:99999' }, 'DNS_RESOLVERS must list resolvers'],
    [{ DNS_TIMEOUT_MS: '50' }, 'DNS_TIMEOUT_MS must be an integer from 100 to 30000'],
    [{ EDGE_IPV4: '::1' }, 'EDGE_IPV4 must list IPv4 addresses'],
    [{ EDGE_CNAME_TARGET: 'localhost' }, 'EDGE_CNAME_TARGET must be a fully qualified hostname'],
    [{ OUTBOUND_ALLOW_CIDRS: '10.0.0.0' }, 'OUTBOUND_ALLOW_CIDRS must list CIDR ranges'],
    [{ REGISTRAR: 'godaddy' }, 'REGISTRAR must be one of sandbox, namecheap'],
    [{ REGISTRAR: 'namecheap' }, 'NAMECHEAP_API_USER is required when REGISTRAR=namecheap'],
    [{ PAYMENTS: 'stripe' }, 'STRIPE_SECRET_KEY is required when PAYMENTS=stripe'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters long'],
    [{ SIGNING_SECRET: 'short' }, 'SIGNING_SECRET must be at least 32 characters long'],
    [{ MIGRATE_ON_START: 'maybe' }, 'MIGRATE_ON_START must be true or false'],
    [{ NODE_ID: 'a b' }, 'NODE_ID may hold only'],
    [{ NATS_REPLICAS: '7' }, 'NATS_REPLICAS must be an integer from 1 to 5'],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env, 'standalone')).toThrow(ConfigError);
    expect(() => loadConfig(env, 'standalone')).toThrow(`Invalid configuration: ${message}`);
  });

  it('requires the cluster variables for the split processes', () => {
    expect(() => loadConfig({}, 'node')).toThrow('DATABASE_URL is required by the node process');
    expect(() => loadConfig({ DATABASE_URL: cluster.DATABASE_URL }, 'edge')).toThrow(
      'NATS_URL is required by the edge process',
    );
    expect(() => loadConfig({ ...cluster, SIGNING_SECRET: '' }, 'api')).toThrow(
      'SIGNING_SECRET is required by the api process',
    );
    expect(() => loadConfig({ ...cluster, ENCRYPTION_KEY: '' }, 'node')).toThrow(
      'ENCRYPTION_KEY is required by the node process',
    );
    expect(loadConfig(cluster, 'api').natsUrls).toEqual(['nats://n:4222']);
  });

  it('reads the registrar and payment provider settings with their timeouts', () => {
    const namecheap = {
      REGISTRAR: 'namecheap',
      NAMECHEAP_API_USER: 'u',
      NAMECHEAP_API_KEY: 'k',
      NAMECHEAP_CLIENT_IP: '192.0.2.1',
    };
    expect(loadConfig(namecheap, 'standalone').namecheap).toMatchObject({
      apiUrl: 'https://api.namecheap.com/xml.response',
      timeoutMs: 60_000,
    });
    expect(loadConfig({ ...namecheap, NAMECHEAP_TIMEOUT_MS: '500' }, 'standalone').namecheap?.timeoutMs).toBe(500);
    const stripe = { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: 'http://127.0.0.1:12111' };
    expect(loadConfig(stripe, 'standalone').stripe).toEqual({
      apiUrl: 'http://127.0.0.1:12111',
      secretKey: 'sk_test_x',
      timeoutMs: 30_000,
    });
    expect(() => loadConfig({ ...stripe, STRIPE_TIMEOUT_MS: '0' }, 'standalone')).toThrow(
      'STRIPE_TIMEOUT_MS must be an integer',
    );
  });

  it('reads the DNS provider API bases of dns/apply, defaulting to the real ones', () => {
    expect(loadConfig({}, 'standalone')).toMatchObject({
      cloudflareApiUrl: 'https://api.cloudflare.com/client/v4',
      digitaloceanApiUrl: 'https://api.digitalocean.com/v2',
    });
    const local = loadConfig(
      { CLOUDFLARE_API_URL: 'http://127.0.0.1:9000/client/v4/', DIGITALOCEAN_API_URL: 'http://127.0.0.1:9001/v2' },
      'standalone',
    );
    expect([local.cloudflareApiUrl, local.digitaloceanApiUrl]).toEqual([
      'http://127.0.0.1:9000/client/v4',
      'http://127.0.0.1:9001/v2',
    ]);
    expect(() => loadConfig({ CLOUDFLARE_API_URL: 'ftp://x' }, 'standalone')).toThrow('CLOUDFLARE_API_URL must use');
  });
});

describe('keyless tools settings', () => {
  it('defaults to named public resolvers and the direct-TLS ports', () => {
    const config = loadConfig({}, 'standalone');
    expect(config.propagationResolvers).toEqual([
      { name: 'Cloudflare', address: '1.1.1.1' },
      { name: 'Google', address: '8.8.8.8' },
      { name: 'Quad9', address: '9.9.9.9' },
      { name: 'OpenDNS', address: '208.67.222.222' },
    ]);
    expect(config.propagationTimeoutMs).toBe(2000);
    expect(config.tlsCheckPorts).toEqual([443, 465, 636, 853, 993, 995, 8443]);
  });

  it('parses named and unnamed resolvers and port lists', () => {
    const config = loadConfig(
      {
        PROPAGATION_RESOLVERS: 'Local Lab=127.0.0.1:5353, [2001:db8::1]:53',
        PROPAGATION_TIMEOUT_MS: '500',
        TLS_CHECK_PORTS: '443,8443,443',
      },
      'standalone',
    );
    expect(config.propagationResolvers).toEqual([
      { name: 'Local Lab', address: '127.0.0.1:5353' },
      { name: '[2001:db8::1]:53', address: '[2001:db8::1]:53' },
    ]);
    expect(config.propagationTimeoutMs).toBe(500);
    expect(config.tlsCheckPorts).toEqual([443, 8443]);
  });

  it.each([
    [
      'PROPAGATION_RESOLVERS',
      'Cloudflare=one.one.one.one',
      /PROPAGATION_RESOLVERS must list resolvers as ip or ip:port/,
    ],
    ['PROPAGATION_RESOLVERS', 'Bad<name>=1.1.1.1', /PROPAGATION_RESOLVERS must name resolvers/],
    ['PROPAGATION_TIMEOUT_MS', '50', /PROPAGATION_TIMEOUT_MS must be an integer from 100 to 30000/],
    ['TLS_CHECK_PORTS', '443,0', /TLS_CHECK_PORTS must list ports from 1 to 65535 \(got "0"\)/],
    ['TLS_CHECK_PORTS', 'https', /TLS_CHECK_PORTS must list ports/],
  ])('refuses %s=%j', (name, value, message) => {
    expect(() => loadConfig({ [name]: value }, 'standalone')).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value }, 'standalone')).toThrow(message);
  });
});

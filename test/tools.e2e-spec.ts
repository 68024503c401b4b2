import { CLOCK, Clock } from '@app/kernel';
import {
  DnsServer,
  DnsZones,
  TEST_ADMIN_TOKEN,
  TestApp,
  TestCertificate,
  freePort,
  issueCertificate,
  startDnsServer,
  startTestApp,
  testCertificateAuthority,
} from '@test/support';
import { createSocket, Socket as UdpSocket } from 'node:dgram';
import { Server, createServer } from 'node:tls';
import request from 'supertest';

const MINUTE = 60_000;
const DAY = 86_400_000;

function zones(): DnsZones {
  return {
    'all.tools-test.com': [
      { type: 'A', data: '198.51.100.20', ttl: 300 },
      { type: 'AAAA', data: '2001:db8::20' },
      { type: 'TXT', data: ['v=spf1 ', 'include:mail.example -all'] },
      { type: 'TXT', data: 'site-verification=abc' },
      { type: 'MX', data: { preference: 10, exchange: 'mx1.tools-test.com' } },
      { type: 'NS', data: 'ns1.dns-host.net' },
      { type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
    ],
    'www.tools-test.com': [{ type: 'CNAME', data: 'all.tools-test.com' }],
    'txt-only.tools-test.com': [{ type: 'TXT', data: 'hello' }],
    '_acme-challenge.all.tools-test.com': [{ type: 'TXT', data: 'token-123' }],
    // CAA: blocked at the apex, allowed by Google at a sub-name, critical unknown tag, none at all.
    'caa-blocked.com': [{ type: 'CAA', data: { flags: 0, tag: 'issue', value: 'digicert.com' } }],
    'deep.sub.caa-blocked.com': [{ type: 'A', data: '198.51.100.30' }],
    'google.caa-blocked.com': [
      { type: 'CAA', data: { flags: 0, tag: 'issue', value: 'pki.goog; cansignhttpexchanges=yes' } },
    ],
    'critical.com': [{ type: 'CAA', data: { flags: 128, tag: 'tbs', value: 'x' } }],
    'no-caa.net': [{ type: 'A', data: '198.51.100.31' }],
    // TLS: loopback names (allowed only through OUTBOUND_ALLOW_CIDRS) and forbidden destinations.
    'tls.tools-test.com': [{ type: 'A', data: '127.0.0.1' }],
    'other-name.tools-test.com': [{ type: 'A', data: '127.0.0.1' }],
    'metadata.tools-test.com': [{ type: 'A', data: '169.254.169.254' }],
    'mixed.tools-test.com': [
      { type: 'A', data: '93.184.216.34' },
      { type: 'A', data: '10.0.0.5' },
    ],
    'private6.tools-test.com': [{ type: 'AAAA', data: 'fd00::1' }],
    // Providers: Cloudflare at the apex, a sub-zone delegated to Route 53, an unknown provider.
    'cf-site.com': [
      { type: 'NS', data: 'ada.ns.cloudflare.com' },
      { type: 'NS', data: 'bob.ns.cloudflare.com' },
    ],
    'shop.cf-site.com': [{ type: 'CNAME', data: 'edge.example.net' }],
    'aws.cf-site.com': [
      { type: 'NS', data: 'ns-1.awsdns-07.net' },
      { type: 'NS', data: 'ns-2.awsdns-08.org' },
    ],
    'unknown-ns.com': [{ type: 'NS', data: 'ns1.dns-host.net' }],
  };
}

/** A DNS server that reads every query and answers none (a resolver that times out). */
async function startSilentDns(): Promise<{ address: string; close(): Promise<void> }> {
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', () => undefined);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${udp.address().port}`,
    close: () => new Promise<void>((resolve) => udp.close(() => resolve())),
  };
}

async function startTlsServer(cert: TestCertificate): Promise<{ port: number; server: Server }> {
  const server = createServer({ cert: cert.chainPem, key: cert.keyPem }, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('TLS server has no port');
  return { port: address.port, server };
}

describe('/v1/tools (keyless)', () => {
  let dns: DnsServer;
  let lagging: DnsServer;
  let silent: { address: string; close(): Promise<void> };
  let tls: { port: number; server: Server };
  let closedPort: number;
  let cert: TestCertificate;
  /** Trusts X-Forwarded-For from 127.0.0.1; loopback allowed outbound (the local TLS server). */
  let t: TestApp;
  /** No trusted proxies, no outbound allowance. */
  let strict: TestApp;
  let now = Math.floor(Date.now() / DAY) * DAY + DAY;
  let client = 0;

  /** Each call from its own client address (through the trusted proxy), so limits do not interfere. */
  const tool = (path: string, query: Record<string, unknown> = {}) =>
    request(t.server)
      .get(`/v1/tools/${path}`)
      .query(query)
      .set('x-forwarded-for', `203.0.113.${(client++ % 250) + 1}, 127.0.0.1`);

  beforeAll(async () => {
    dns = await startDnsServer(zones());
    lagging = await startDnsServer({
      ...zones(),
      'all.tools-test.com': [{ type: 'A', data: '198.51.100.99', ttl: 3600 }],
    });
    silent = await startSilentDns();
    const ca = testCertificateAuthority('Tools Test CA');
    cert = issueCertificate({ hostnames: ['tls.tools-test.com', 'www.tls.tools-test.com'], issuer: ca });
    tls = await startTlsServer(cert);
    closedPort = await freePort();
    const common = {
      DNS_RESOLVERS: dns.address,
      RATE_LIMITS: 'on',
      PROPAGATION_RESOLVERS: `Primary=${dns.address},Secondary=${dns.address},Lagging=${lagging.address},Silent=${silent.address}`,
      PROPAGATION_TIMEOUT_MS: '400',
      TLS_CHECK_PORTS: `443,${tls.port},${closedPort}`,
    };
    [t, strict] = await Promise.all([
      startTestApp({ env: { ...common, OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8', TRUSTED_PROXIES: '127.0.0.1/32' } }),
      startTestApp({ env: common }),
    ]);
    for (const app of [t, strict]) jest.spyOn(app.app.get<Clock>(CLOCK), 'now').mockImplementation(() => now);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), strict?.close()]);
    await Promise.all([dns?.close(), lagging?.close(), silent?.close()]);
    await new Promise((resolve) => tls?.server.close(resolve));
  });
  afterEach(() => {
    now += DAY; // a fresh minute and day window for the next test
  });

  describe('dns-lookup', () => {
    it('answers every type when none is given, with TTLs where the resolver reports them', async () => {
      const res = await tool('dns-lookup', { hostname: 'All.Tools-Test.com.' }).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('30');
      expect(res.body.hostname).toBe('all.tools-test.com');
      expect(res.body.rcode).toBe('NOERROR');
      const byType = Object.fromEntries(res.body.results.map((r: { type: string }) => [r.type, r]));
      expect(Object.keys(byType)).toEqual(['A', 'AAAA', 'CNAME', 'TXT', 'NS', 'MX', 'CAA']);
      expect(byType.A).toEqual({ type: 'A', status: 'ok', records: [{ type: 'A', value: '198.51.100.20', ttl: 300 }] });
      expect(byType.AAAA.records).toEqual([{ type: 'AAAA', value: '2001:db8::20', ttl: 60 }]);
      expect(byType.CNAME).toEqual({ type: 'CNAME', status: 'nodata', records: [] });
      expect(byType.TXT.records.map((r: { value: string }) => r.value).sort()).toEqual([
        'site-verification=abc',
        'v=spf1 include:mail.example -all',
      ]);
      expect(byType.NS.records).toEqual([{ type: 'NS', value: 'ns1.dns-host.net' }]);
      expect(byType.MX.records).toEqual([
        { type: 'MX', value: '10 mx1.tools-test.com', data: { priority: 10, exchange: 'mx1.tools-test.com' } },
      ]);
      expect(byType.CAA.records).toEqual([
        {
          type: 'CAA',
          value: '0 issue "letsencrypt.org"',
          data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
        },
      ]);
    });

    it('answers one type (case-insensitive) and follows CNAMEs for addresses', async () => {
      const cname = await tool('dns-lookup', { hostname: 'www.tools-test.com', type: 'cname' }).expect(200);
      expect(cname.body.results).toEqual([
        { type: 'CNAME', status: 'ok', records: [{ type: 'CNAME', value: 'all.tools-test.com' }] },
      ]);
      const a = await tool('dns-lookup', { hostname: 'www.tools-test.com', type: 'A' }).expect(200);
      expect(a.body.results[0].records.map((r: { value: string }) => r.value)).toEqual(['198.51.100.20']);
    });

    it('tells NXDOMAIN from NODATA', async () => {
      const missing = await tool('dns-lookup', { hostname: 'nope.tools-test.com', type: 'A' }).expect(200);
      expect(missing.body).toEqual({
        hostname: 'nope.tools-test.com',
        rcode: 'NXDOMAIN',
        results: [{ type: 'A', status: 'nxdomain', records: [] }],
      });
      const empty = await tool('dns-lookup', { hostname: 'txt-only.tools-test.com', type: 'A' }).expect(200);
      expect(empty.body.rcode).toBe('NOERROR');
      expect(empty.body.results).toEqual([{ type: 'A', status: 'nodata', records: [] }]);
      const all = await tool('dns-lookup', { hostname: 'nope.tools-test.com' }).expect(200);
      expect(all.body.rcode).toBe('NXDOMAIN');
      expect(all.body.results.every((r: { status: string }) => r.status === 'nxdomain')).toBe(true);
    });
  });

  describe('bad input', () => {
    it.each([
      ['dns-lookup', {}, 'hostname', /hostname is required/],
      ['dns-lookup', { hostname: '10.0.0.1' }, 'hostname', /IP address/],
      ['dns-lookup', { hostname: 'localhost' }, 'hostname', /special-use/],
      ['dns-lookup', { hostname: 'com' }, 'hostname', /full domain name/],
      ['dns-lookup', { hostname: 'a b.com' }, 'hostname', /character/],
      ['dns-lookup', { hostname: 'x'.repeat(64) + '.com' }, 'hostname', /invalid label/],
      ['dns-lookup', { hostname: 'all.tools-test.com', type: 'SRV' }, 'type', /one of A, AAAA, CNAME/],
      ['caa-check', { hostname: '' }, 'hostname', /required/],
      ['propagation', { hostname: 'all.tools-test.com', type: 'PTR' }, 'type', /one of/],
      ['tls-check', { hostname: 'tls.tools-test.com', port: 'abc' }, 'port', /1 to 65535/],
      ['tls-check', { hostname: 'tls.tools-test.com', port: '0' }, 'port', /1 to 65535/],
      ['tls-check', { hostname: 'tls.tools-test.com', port: '70000' }, 'port', /1 to 65535/],
      ['tls-check', { hostname: 'tls.tools-test.com', port: '22' }, 'port', /port must be one of 443, /],
      ['tls-check', { hostname: 'tls.tools-test.com', port: '1.5' }, 'port', /1 to 65535/],
      ['propagation', { hostname: 'all.tools-test.com', expected: 'not-an-ip' }, 'expected', /IPv4/],
      ['propagation', { hostname: 'all.tools-test.com', type: 'AAAA', expected: '::1,x' }, 'expected', /IPv6/],
    ])('%s %j: 400 naming %s', async (path, query, field, message) => {
      const res = await tool(path, query).expect(400);
      expect(res.body.error).toBe('bad_request');
      expect(res.body.message).toMatch(message);
      expect(res.body.details.fields).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, problems: [expect.stringMatching(message)] })]),
      );
    });

    it('refuses unknown parameters and repeated hostnames', async () => {
      const unknown = await tool('dns-lookup', { hostname: 'all.tools-test.com', recursive: '1' }).expect(400);
      expect(unknown.body.details.fields).toEqual([
        { field: 'recursive', problems: ['property recursive should not exist'] },
      ]);
      const twice = await request(t.server)
        .get('/v1/tools/dns-lookup?hostname=a.tools-test.com&hostname=b.tools-test.com')
        .set('x-forwarded-for', '198.18.0.1')
        .expect(400);
      expect(twice.body.details.fields[0]).toEqual({
        field: 'hostname',
        problems: ['hostname must be a single string'],
      });
    });

    it('answers 404 for an unknown tool, without auth', async () => {
      const res = await tool('whois', { hostname: 'all.tools-test.com' }).expect(404);
      expect(res.body.error).toBe('not_found');
    });
  });

  describe('caa-check', () => {
    it('allows everyone when no name up the tree has CAA records', async () => {
      const res = await tool('caa-check', { hostname: 'no-caa.net' }).expect(200);
      expect(res.body).toMatchObject({
        hostname: 'no-caa.net',
        allowed: true,
        relevantName: null,
        records: [],
        checked: [{ name: 'no-caa.net', records: [] }],
      });
      expect(res.body.authorities).toEqual([
        { id: 'letsencrypt', name: "Let's Encrypt", issuerDomain: 'letsencrypt.org', allowed: true },
        { id: 'google', name: 'Google Trust Services', issuerDomain: 'pki.goog', allowed: true },
      ]);
    });

    it('climbs to the apex and reports records that authorize neither CA, with the fix', async () => {
      const res = await tool('caa-check', { hostname: 'deep.sub.caa-blocked.com' }).expect(200);
      expect(res.body).toMatchObject({
        allowed: false,
        relevantName: 'caa-blocked.com',
        records: ['0 issue "digicert.com"'],
        checked: [
          { name: 'deep.sub.caa-blocked.com', records: [] },
          { name: 'sub.caa-blocked.com', records: [] },
          { name: 'caa-blocked.com', records: ['0 issue "digicert.com"'] },
        ],
      });
      expect(res.body.authorities.map((a: { allowed: boolean }) => a.allowed)).toEqual([false, false]);
      expect(res.body.message).toMatch(/CAA 0 issue "letsencrypt.org"/);
    });

    it('stops at the closest name with CAA records (Google only there)', async () => {
      const res = await tool('caa-check', { hostname: 'google.caa-blocked.com' }).expect(200);
      expect(res.body.allowed).toBe(true);
      expect(res.body.relevantName).toBe('google.caa-blocked.com');
      expect(res.body.authorities.map((a: { allowed: boolean }) => a.allowed)).toEqual([false, true]);
      expect(res.body.message).toMatch(/allow Google Trust Services/);
    });

    it('refuses everyone on a critical unknown tag', async () => {
      const res = await tool('caa-check', { hostname: 'critical.com' }).expect(200);
      expect(res.body).toMatchObject({ allowed: false, criticalUnknownTag: 'tbs' });
    });
  });

  describe('dns-provider', () => {
    it('finds the zone cut and the provider from its nameservers', async () => {
      const res = await tool('dns-provider', { hostname: 'shop.cf-site.com' }).expect(200);
      expect(res.body).toEqual({
        hostname: 'shop.cf-site.com',
        zone: 'cf-site.com',
        nameservers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'],
        provider: {
          id: 'cloudflare',
          name: expect.stringMatching(/Cloudflare/),
          detected: true,
          dashboardUrl: expect.stringMatching(/^https:\/\//),
        },
      });
    });

    it('sees a delegated sub-zone, and says when the provider is unknown', async () => {
      const aws = await tool('dns-provider', { hostname: 'www.aws.cf-site.com' }).expect(200);
      expect(aws.body).toMatchObject({ zone: 'aws.cf-site.com', provider: { id: 'route53', detected: true } });
      const unknown = await tool('dns-provider', { hostname: 'unknown-ns.com' }).expect(200);
      expect(unknown.body).toEqual({
        hostname: 'unknown-ns.com',
        zone: 'unknown-ns.com',
        nameservers: ['ns1.dns-host.net'],
        provider: { id: 'unknown', name: 'Unknown DNS provider', detected: false },
      });
      await tool('dns-provider', { hostname: 'nope..com' }).expect(400);
    });
  });

  describe('propagation', () => {
    it('asks every resolver at once and says which see the expected value', async () => {
      const started = Date.now();
      const res = await tool('propagation', {
        hostname: 'all.tools-test.com',
        type: 'A',
        expected: '198.51.100.20',
      }).expect(200);
      expect(Date.now() - started).toBeLessThan(2_500); // one timeout, not one per resolver in turn
      expect(res.body.expected).toEqual(['198.51.100.20']);
      const [primary, secondary, lagging, silentView] = res.body.resolvers;
      expect(primary).toMatchObject({
        name: 'Primary',
        status: 'ok',
        values: ['198.51.100.20'],
        ttl: 300,
        matches: true,
      });
      expect(secondary).toMatchObject({ name: 'Secondary', matches: true });
      expect(lagging).toMatchObject({ name: 'Lagging', status: 'ok', values: ['198.51.100.99'], matches: false });
      expect(silentView).toMatchObject({ name: 'Silent', status: 'timeout', values: [], matches: false });
      expect(res.body.summary).toEqual({
        propagated: 2,
        total: 4,
        complete: false,
        consistent: false,
        message: '2 of 4 resolvers see 198.51.100.20 for all.tools-test.com',
      });
    });

    it('normalizes expected values (names, TXT) and counts answering resolvers without one', async () => {
      const cname = await tool('propagation', {
        hostname: 'www.tools-test.com',
        type: 'cname',
        expected: 'ALL.tools-test.com.',
      }).expect(200);
      expect(cname.body.summary.propagated).toBe(3);
      const txt = await tool('propagation', {
        hostname: 'all.tools-test.com',
        type: 'TXT',
        expected: '"v=spf1 " "include:mail.example -all"',
      }).expect(200);
      expect(txt.body.resolvers[0].matches).toBe(true);
      const listed = await tool('propagation', {
        hostname: 'all.tools-test.com',
        expected: '198.51.100.20, 198.51.100.99',
      }).expect(200);
      expect(listed.body.expected).toEqual(['198.51.100.20', '198.51.100.99']);
      expect(listed.body.summary.propagated).toBe(0); // nobody sees both
      const none = await tool('propagation', { hostname: 'all.tools-test.com' }).expect(200);
      expect(none.body.expected).toBeNull();
      expect(none.body.resolvers[0].matches).toBeUndefined();
      expect(none.body.summary).toMatchObject({ propagated: 3, total: 4 });
    });
  });

  describe('tls-check', () => {
    it('reports the chain, expiry, name match and trust of a served certificate', async () => {
      const res = await tool('tls-check', { hostname: 'tls.tools-test.com', port: String(tls.port) }).expect(200);
      expect(res.body).toMatchObject({
        hostname: 'tls.tools-test.com',
        port: tls.port,
        address: '127.0.0.1',
        connected: true,
        hostnameMatches: true,
        trusted: false,
        expired: false,
      });
      expect(res.body.protocol).toMatch(/^TLSv1\.[23]$/);
      expect(res.body.verificationError).toMatch(/UNABLE_TO_VERIFY|SELF_SIGNED|UNABLE_TO_GET_ISSUER/);
      const expectedDays = Math.floor((cert.notAfter.getTime() - Date.now()) / DAY);
      expect(res.body.daysToExpiry).toBeGreaterThanOrEqual(expectedDays - 1);
      expect(res.body.daysToExpiry).toBeLessThanOrEqual(expectedDays);
      const [leaf, issuer] = res.body.chain;
      expect(leaf).toMatchObject({
        subject: `CN=${cert.commonName}`,
        issuer: 'CN=Tools Test CA',
        validTo: new Date(Math.floor(cert.notAfter.getTime() / 1000) * 1000).toISOString(),
        subjectAltNames: ['DNS:tls.tools-test.com', 'DNS:www.tls.tools-test.com'],
        fingerprint256: cert.fingerprint256,
      });
      expect(issuer).toMatchObject({ subject: 'CN=Tools Test CA' });
    });

    it('says when the certificate does not cover the name', async () => {
      const res = await tool('tls-check', { hostname: 'other-name.tools-test.com', port: String(tls.port) }).expect(
        200,
      );
      expect(res.body.hostnameMatches).toBe(false);
      expect(res.body.hostnameError).toMatch(/other-name\.tools-test\.com/);
    });

    it('reports a refused connection', async () => {
      const res = await tool('tls-check', { hostname: 'tls.tools-test.com', port: String(closedPort) }).expect(200);
      expect(res.body).toMatchObject({ connected: false, error: expect.stringMatching(/ECONNREFUSED/) });
    });

    it.each([
      ['metadata.tools-test.com', '169.254.169.254', /link-local/],
      ['mixed.tools-test.com', '10.0.0.5', /private network/],
      ['private6.tools-test.com', 'fd00::1', /unique-local/],
    ])('refuses %s (%s) even with loopback allowed', async (hostname, address, reason) => {
      const res = await tool('tls-check', { hostname }).expect(400);
      expect(res.body).toMatchObject({
        error: 'bad_request',
        details: { reason: 'ssrf_blocked', addresses: [address] },
      });
      expect(res.body.message).toMatch(reason);
      expect(res.body.details.fields[0].field).toBe('hostname');
    });

    it('refuses loopback without OUTBOUND_ALLOW_CIDRS, and names that do not resolve', async () => {
      const res = await request(strict.server)
        .get('/v1/tools/tls-check')
        .query({ hostname: 'tls.tools-test.com', port: String(tls.port) })
        .expect(400);
      expect(res.body).toMatchObject({
        error: 'bad_request',
        message: expect.stringMatching(/Refusing to connect to tls\.tools-test\.com: .*127\.0\.0\.1 is a loopback/),
        details: { reason: 'ssrf_blocked', addresses: ['127.0.0.1'] },
      });
      const none = await tool('tls-check', { hostname: 'nope.tools-test.com' }).expect(400);
      expect(none.body.details).toMatchObject({ reason: 'not_resolving' });
    });
  });

  describe('rate limits per client IP', () => {
    it('allows 30 a minute and 500 a day per forwarded client IP behind a trusted proxy', async () => {
      const from = (ip: string) =>
        request(t.server)
          .get('/v1/tools/dns-lookup')
          .query({ hostname: 'all.tools-test.com', type: 'A' })
          .set('x-forwarded-for', ip);
      for (let i = 1; i <= 30; i++) {
        const res = await from('192.0.2.50').expect(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(30 - i));
      }
      now += 20_000;
      const limited = await from('192.0.2.50').expect(429);
      expect(limited.headers['retry-after']).toBe('40');
      expect(limited.body).toEqual({
        error: 'rate_limited',
        message: 'Rate limit for tools exceeded (30 per minute): retry in 40 seconds',
        details: { action: 'tools', retryAfter: 40 },
      });
      await from('192.0.2.51').expect(200); // another client behind the same proxy
      // The daily budget: 500 over many minutes, then refused until the day ends.
      let sent = 31;
      while (sent < 500) {
        now += MINUTE;
        for (let i = 0; i < 30 && sent < 500; i++, sent++) await from('192.0.2.50').expect(200);
      }
      now += MINUTE;
      const daily = await from('192.0.2.50').expect(429);
      expect(daily.body.details.action).toBe('tools.daily');
      await from('192.0.2.51').expect(200);
    });

    it('ignores X-Forwarded-For from an untrusted peer: every such call counts against the peer', async () => {
      for (let i = 0; i < 30; i++) {
        await request(strict.server)
          .get('/v1/tools/dns-lookup')
          .query({ hostname: 'all.tools-test.com', type: 'A' })
          .set('x-forwarded-for', `198.51.100.${i + 1}`)
          .expect(200);
      }
      const res = await request(strict.server)
        .get('/v1/tools/dns-lookup')
        .query({ hostname: 'all.tools-test.com', type: 'A' })
        .set('x-forwarded-for', '198.51.100.200')
        .expect(429);
      expect(res.body.details.action).toBe('tools');
    });

    it('counts refused input too, and needs no Authorization (a bad one is not even read)', async () => {
      for (let i = 0; i < 30; i++) {
        await request(t.server)
          .get('/v1/tools/caa-check')
          .query(i % 2 ? {} : { hostname: 'no-caa.net' })
          .set('x-forwarded-for', '192.0.2.77')
          .set('authorization', 'Bearer not-a-key')
          .expect(i % 2 ? 400 : 200);
      }
      await request(t.server).get('/v1/tools/caa-check').set('x-forwarded-for', '192.0.2.77').expect(429);
    });
  });
});

describe('/v1/dns/check-records-*', () => {
  const HOUR = 3_600_000;
  let checksNow = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
  let dns: DnsServer;
  let t: TestApp;
  let key: string;

  const post = (path: string, body: unknown, k: string | null = key) => {
    const req = request(t.server).post(`/v1/dns/${path}`);
    if (k) req.set('authorization', `Bearer ${k}`);
    return req.send(body as object);
  };

  beforeAll(async () => {
    dns = await startDnsServer(zones());
    t = await startTestApp({ env: { DNS_RESOLVERS: dns.address, RATE_LIMITS: 'on' } });
    jest.spyOn(t.app.get<Clock>(CLOCK), 'now').mockImplementation(() => checksNow);
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'checks' })
      .expect(201);
    key = res.body.apiKey as string;
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('answers found, missing and mismatch per record with what was seen', async () => {
    const res = await post('check-records-single', {
      hostname: 'All.tools-test.com',
      records: [
        { type: 'A', value: '198.51.100.20' },
        { type: 'a', name: '@', value: '198.51.100.21' },
        { type: 'CNAME', value: 'edge.example.net' },
        { type: 'TXT', value: 'v=spf1 include:mail.example -all' },
        { type: 'TXT', name: '_acme-challenge', value: '"token-123"' },
        { type: 'TXT', name: '_missing', value: 'x' },
        { type: 'MX', value: '10 MX1.tools-test.com.' },
        { type: 'MX', value: 'mx1.tools-test.com' },
        { type: 'MX', value: '20 mx1.tools-test.com' },
        { type: 'AAAA', value: '2001:DB8:0::20' },
        { type: 'CAA', value: 'issue "letsencrypt.org"' },
        { type: 'NS', name: 'all.tools-test.com.', value: 'ns1.dns-host.net.' },
      ],
    }).expect(200);
    expect(res.body.hostname).toBe('all.tools-test.com');
    expect(res.body.allFound).toBe(false);
    expect(res.body.summary).toEqual({ found: 8, missing: 2, mismatch: 2, error: 0, total: 12 });
    const statuses = res.body.records.map((r: { status: string }) => r.status);
    expect(statuses).toEqual([
      'found',
      'mismatch',
      'missing',
      'found',
      'found',
      'missing',
      'found',
      'found',
      'mismatch',
      'found',
      'found',
      'found',
    ]);
    expect(res.body.records[1]).toEqual({
      type: 'A',
      name: 'all.tools-test.com',
      value: '198.51.100.21',
      status: 'mismatch',
      seen: ['198.51.100.20'],
    });
    expect(res.body.records[4]).toMatchObject({ name: '_acme-challenge.all.tools-test.com', value: 'token-123' });
    expect(res.body.records[5]).toMatchObject({ name: '_missing.all.tools-test.com', status: 'missing', seen: [] });
    expect(res.body.records[8]).toMatchObject({ value: '20 mx1.tools-test.com', seen: ['10 mx1.tools-test.com'] });
    expect(res.body.records[9]).toMatchObject({ value: '2001:db8::20' });
    expect(res.body.records[10]).toMatchObject({ value: '0 issue "letsencrypt.org"' });
  });

  it('checks a batch in input order, each hostname on its own', async () => {
    const res = await post('check-records-batch', {
      checks: [
        { hostname: 'www.tools-test.com', records: [{ type: 'CNAME', value: 'all.tools-test.com' }] },
        { hostname: 'nope.tools-test.com', records: [{ type: 'A', value: '198.51.100.20' }] },
        { hostname: 'txt-only.tools-test.com', records: [{ type: 'TXT', value: 'hello' }] },
      ],
    }).expect(200);
    expect(res.body.results.map((r: { hostname: string; allFound: boolean }) => [r.hostname, r.allFound])).toEqual([
      ['www.tools-test.com', true],
      ['nope.tools-test.com', false],
      ['txt-only.tools-test.com', true],
    ]);
    expect(res.body.results[1].records[0]).toMatchObject({ status: 'missing', seen: [] });
  });

  it('reports a resolver failure as error, not as missing', async () => {
    const silent = await startSilentDns();
    const lonely = await startTestApp({ env: { DNS_RESOLVERS: silent.address } });
    try {
      const res = await request(lonely.server)
        .post('/admin/workspaces')
        .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .send({ name: 'x' })
        .expect(201);
      const check = await request(lonely.server)
        .post('/v1/dns/check-records-single')
        .set('authorization', `Bearer ${res.body.apiKey}`)
        .send({ hostname: 'all.tools-test.com', records: [{ type: 'A', value: '198.51.100.20' }] })
        .expect(200);
      expect(check.body.records[0]).toMatchObject({ status: 'error', error: 'ETIMEOUT' });
      expect(check.body.summary.error).toBe(1);
    } finally {
      await lonely.close();
      await silent.close();
    }
  }, 30_000);

  it('needs an API key', async () => {
    const res = await post('check-records-single', { hostname: 'all.tools-test.com', records: [] }, null).expect(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it.each([
    ['no records', { hostname: 'all.tools-test.com', records: [] }, 'records'],
    ['a bad hostname', { hostname: 'local host', records: [{ type: 'A', value: '1.2.3.4' }] }, 'hostname'],
    ['an unknown type', { hostname: 'all.tools-test.com', records: [{ type: 'SRV', value: 'x' }] }, 'records.0.type'],
    ['an empty value', { hostname: 'all.tools-test.com', records: [{ type: 'A', value: '' }] }, 'records.0.value'],
    [
      'a value that cannot be of its type',
      { hostname: 'all.tools-test.com', records: [{ type: 'AAAA', value: '192.0.2.1' }] },
      'records.0.value',
    ],
    [
      'a bad name',
      { hostname: 'all.tools-test.com', records: [{ type: 'A', name: 'a/b', value: '1.2.3.4' }] },
      'records.0.name',
    ],
    [
      '101 records',
      { hostname: 'all.tools-test.com', records: Array.from({ length: 101 }, () => ({ type: 'A', value: '1.2.3.4' })) },
      'records',
    ],
  ])('single: 400 for %s', async (_what, body, field) => {
    const res = await post('check-records-single', body).expect(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('batch: 400 for more than 100 checks, a bad item, or more than 1,000 records in all', async () => {
    const check = { hostname: 'all.tools-test.com', records: [{ type: 'A', value: '198.51.100.20' }] };
    const tooMany = await post('check-records-batch', { checks: Array.from({ length: 101 }, () => check) }).expect(400);
    expect(tooMany.body.details.fields[0].field).toBe('checks');
    const badItem = await post('check-records-batch', {
      checks: [check, { hostname: '10.0.0.1', records: [] }],
    }).expect(400);
    expect(badItem.body.details.fields.map((f: { field: string }) => f.field)).toEqual([
      'checks.1.hostname',
      'checks.1.records',
    ]);
    const big = { hostname: 'all.tools-test.com', records: Array.from({ length: 100 }, () => check.records[0]) };
    const heavy = await post('check-records-batch', { checks: Array.from({ length: 11 }, () => big) }).expect(400);
    expect(heavy.body.details.fields).toEqual([
      { field: 'checks', problems: ['checks hold 1100 records in all; at most 1000 per call'] },
    ]);
  });
  it('allows 600 checks an hour per key (besides 60 a minute), then 429 naming the action', async () => {
    checksNow = Math.floor(checksNow / HOUR) * HOUR + HOUR;
    const created = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'hourly' })
      .expect(201);
    const body = { hostname: 'txt-only.tools-test.com', records: [{ type: 'TXT', value: 'hello' }] };
    for (let i = 0; i < 600; i++) {
      if (i % 50 === 0) checksNow += 60_000; // stay under the per-minute limit
      await post('check-records-single', body, created.body.apiKey).expect(200);
    }
    checksNow += 60_000;
    const res = await post('check-records-single', body, created.body.apiKey).expect(429);
    expect(res.body.details.action).toBe('dns.check_records');
    expect(res.headers['x-ratelimit-limit']).toBe('600');
    await post('check-records-single', body).expect(200); // another key
  });
});

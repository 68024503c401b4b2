import {
  DnsServer,
  LoopbackOrigin,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  edgeRequest,
  freePort,
  issueCertificate,
  loopbackStandalone,
  retryOnPortCollision,
  startDnsServer,
  startLoopbackOrigin,
  startTestApp,
  storeCertificate,
  untilServed,
  testCertificateAuthority,
} from '@test/support';
import request from 'supertest';

/**
 * What an adversarial probe found at the edge: a path that climbs above the origin's base path, a
 * Host with an impossible port, and X-Forwarded-Proto believed from any loopback peer.
 */
describe('edge: path and header hygiene', () => {
  const ca = testCertificateAuthority();
  const HOST = 'tenant.customer-a.com';
  let dns: DnsServer;
  let origin: LoopbackOrigin;
  let t: TestApp;
  let ports: { http: number; https: number };

  const https = (path: string, headers: Record<string, string> = {}) =>
    edgeRequest('https', { port: ports.https, hostname: HOST, path, ca: ca.certPem, headers });

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    origin = await startLoopbackOrigin();
    t = await retryOnPortCollision(async () => {
      ports = { http: await freePort(), https: await freePort() };
      return startTestApp({
        env: {
          ...domainEnv(dns.address),
          EDGE_HTTP_PORT: String(ports.http),
          EDGE_HTTPS_PORT: String(ports.https),
          OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32',
        },
        rootModule: loopbackStandalone,
      });
    });
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'hygiene', paymentMethod: 'pm_card_visa' })
      .expect(201);
    const created = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${ws.body.apiKey as string}`)
      .send({ hostname: HOST, originUrl: `${origin.url}/tenants/123` })
      .expect(201);
    const cert = issueCertificate({ hostnames: [HOST], issuer: ca });
    await storeCertificate(t.db, { id: created.body.domain.id as string, hostname: HOST }, cert);
    await untilServed(ports.https, HOST, cert.fingerprint256);
  });

  afterAll(async () => {
    await t?.close();
    await origin?.close();
    await dns?.close();
  });

  it.each([
    ['/../456/secret', '/tenants/123/456/secret'],
    ['/%2e%2e/%2E%2E/456/secret', '/tenants/123/456/secret'],
    ['/a/./b/../c?x=1', '/tenants/123/a/c?x=1'],
  ])('keeps %s under the origin base path (%s)', async (path, seen) => {
    const res = await https(path);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).url).toBe(seen);
  });

  it.each([['/..%2f456/secret'], ['/..%2F..%2Fsecret'], ['/%2e%2e%5c456']])(
    'refuses %s, a climb behind an encoded separator, with 400 and sends nothing',
    async (path) => {
      const before = origin.requests.length;
      const res = await https(path);
      expect(res.status).toBe(400);
      expect(origin.requests.length).toBe(before);
    },
  );

  it.each([[`${HOST}:99999`], [`${HOST}:0`], [`${HOST}:65536`]])('answers 400 to Host %s', async (host) => {
    const before = origin.requests.length;
    const res = await https('/', { host });
    expect(res.status).toBe(400);
    expect(origin.requests.length).toBe(before);
  });

  it('does not believe X-Forwarded-Proto from a loopback peer outside TRUSTED_PROXIES', async () => {
    const before = origin.requests.length;
    const res = await edgeRequest('http', {
      port: ports.http,
      hostname: HOST,
      path: '/claims-https',
      headers: { 'x-forwarded-proto': 'https' },
    });
    // Plain HTTP stays plain HTTP: the redirect to HTTPS, not the origin over an unencrypted hop.
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`https://${HOST}/claims-https`);
    expect(origin.requests.length).toBe(before);
  });
});

import { edgeFeatures } from '@app/runtime';
import { EDGE_REPLICA, EdgeModule, EdgeReplica, EdgeReplicaWriter, replicaKey } from '@app/edge';
import {
  DnsServer,
  LoopbackOrigin,
  TEST_ADMIN_TOKEN,
  TestApp,
  TestCertificate,
  domainEnv,
  domainZones,
  edgeRequest,
  eventually,
  judgeTimes,
  startCpuAccounting,
  freePort,
  issueCertificate,
  loopbackStandalone,
  retryOnPortCollision,
  startDnsServer,
  startEdgeApp,
  startLoopbackOrigin,
  startTestApp,
  storeCertificate,
  testCertificateAuthority,
  tlsHandshake,
  untilServed,
  websocketEcho,
} from '@test/support';
import { createHash, randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';

describe('edge: TLS by SNI, proxy, redirects, ACME challenges', () => {
  const ca = testCertificateAuthority();
  let dns: DnsServer;
  let origin: LoopbackOrigin;
  /** Listens on 127.0.0.2, outside OUTBOUND_ALLOW_CIDRS: what a rebound name would reach without the check. */
  let rebindTarget: LoopbackOrigin;
  let t: TestApp;
  let key: string;
  let ports: { http: number; https: number };
  let strictEdge: NestFastifyApplication | undefined;
  let impatientEdge: NestFastifyApplication | undefined;
  const domains = new Map<string, { id: string; hostname: string }>();
  const certs = new Map<string, TestCertificate>();

  const https = (hostname: string, path = '/', extra: Partial<Parameters<typeof edgeRequest>[1]> = {}) =>
    edgeRequest('https', { port: ports.https, hostname, path, ca: ca.certPem, ...extra });
  const http = (hostname: string, path = '/') => edgeRequest('http', { port: ports.http, hostname, path });

  async function connect(hostname: string, body: Record<string, unknown>, withCertificate = true) {
    const res = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${key}`)
      .send({ hostname, ...body })
      .expect(201);
    const domain = { id: res.body.domain.id as string, hostname };
    domains.set(hostname, domain);
    if (withCertificate) {
      const names = body.redirectWww ? [hostname, `www.${hostname}`] : [hostname];
      const cert = issueCertificate({ hostnames: names, issuer: ca });
      certs.set(hostname, cert);
      await storeCertificate(t.db, domain, cert);
      await untilServed(ports.https, hostname, cert.fingerprint256);
    } else {
      // No certificate to wait for: wait until the edge's replica has the route (plain HTTP redirects then).
      await eventually(
        () => http(hostname, '/'),
        (res) => res.status !== 404,
        { timeoutMs: 5_000, everyMs: 25, what: `the edge to route ${hostname}` },
      );
    }
    return domain;
  }

  beforeAll(async () => {
    dns = await startDnsServer({
      ...domainZones(),
      'loop.saas-test.net': [{ type: 'A', data: '127.0.0.1' }],
      'rebind.saas-test.net': [{ type: 'A', data: '127.0.0.1' }],
      'blocked.saas-test.net': [{ type: 'A', data: '127.0.0.1' }],
    });
    origin = await startLoopbackOrigin();
    rebindTarget = await startLoopbackOrigin('127.0.0.2');
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
      .send({ name: 'edge', paymentMethod: 'pm_card_visa' })
      .expect(201);
    key = ws.body.apiKey;
    await connect('proxy.customer-a.com', { originUrl: `${origin.url}/base` });
    await connect('keephost.customer-a.com', { originUrl: origin.url, keepHost: true });
    await connect('redirect.customer-a.com', {
      originUrl: 'https://origin.saas-test.net/landing?ref=edge',
      mode: 'redirect',
      redirectStatus: 302,
    });
    await connect('example-shop.com', { originUrl: origin.url, redirectWww: true });
    await connect('loop.customer-a.com', { originUrl: `http://loop.saas-test.net:${origin.port}` });
    await connect('down.customer-a.com', { originUrl: `http://127.0.0.1:${await freePort()}` });
    await connect('nocert.customer-a.com', { originUrl: origin.url }, false);
  });

  afterAll(async () => {
    await strictEdge?.close();
    await impatientEdge?.close();
    await t?.close();
    await origin?.close();
    await rebindTarget?.close();
    await dns?.close();
  });

  it('is what edgeFeatures() wires into standalone and the edge process', () => {
    expect(edgeFeatures()).toEqual([expect.objectContaining({ module: EdgeModule })]);
  });

  it('presents the domain certificate chosen by SNI and proxies to the origin path with X-Forwarded-*', async () => {
    const res = await https('proxy.customer-a.com', '/a/b?x=1', {
      headers: { 'x-forwarded-for': '203.0.113.9', connection: 'x-hop', 'x-hop': 'secret', 'x-kept': 'yes' },
    });
    expect(res.authorized).toBe(true);
    expect(res.fingerprint256).toBe(certs.get('proxy.customer-a.com')!.fingerprint256);
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    const seen = JSON.parse(res.body);
    expect(seen.url).toBe('/base/a/b?x=1');
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${origin.port}`,
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'proxy.customer-a.com',
      'x-kept': 'yes',
    });
    expect(seen.headers['x-hop']).toBeUndefined();
  });

  it('forwards the visitor Host with keepHost', async () => {
    const res = await https('keephost.customer-a.com', '/k');
    const seen = JSON.parse(res.body);
    expect(seen).toMatchObject({
      url: '/k',
      headers: { host: 'keephost.customer-a.com', 'x-forwarded-for': '127.0.0.1' },
    });
  });

  it('streams a POST body to the origin before the visitor has finished sending it', async () => {
    const id = randomBytes(6).toString('hex');
    const chunk = randomBytes(1024 * 1024);
    const hash = createHash('sha256');
    const res = await https('proxy.customer-a.com', '/upload', {
      method: 'POST',
      headers: { 'x-test-id': id, 'content-type': 'application/octet-stream' },
      write: async (req) => {
        req.write(chunk);
        hash.update(chunk);
        await eventually(() => origin.progress.get(id), Boolean, {
          timeoutMs: 5_000,
          everyMs: 25,
          what: 'the origin to see the start of the streaming body',
        });
        for (let i = 0; i < 4; i++) {
          req.write(chunk);
          hash.update(chunk);
        }
      },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({
      method: 'POST',
      bodyLength: 5 * 1024 * 1024,
      bodySha256: hash.digest('hex'),
      headers: { 'transfer-encoding': 'chunked' },
    });
  });

  it('refuses a body declared over the limit with 413 before contacting the origin', async () => {
    const before = origin.requests.length;
    const res = await https('proxy.customer-a.com', '/big', {
      method: 'POST',
      headers: { 'content-length': String(101 * 1024 * 1024) },
      write: (req) => void req.flushHeaders(),
    }).catch((error: Error) => ({ status: 0, body: error.message }));
    expect(res.status).toBe(413);
    expect(origin.requests.length).toBe(before);
  });

  it('redirects in redirect mode with its status, keeping path and query', async () => {
    const res = await https('redirect.customer-a.com', '/a/b?x=1');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://origin.saas-test.net/landing/a/b?ref=edge&x=1');
  });

  it('redirects the www twin of a redirectWww domain to the domain, over HTTPS and HTTP', async () => {
    const secure = await https('www.example-shop.com', '/p?q=1');
    expect(secure.fingerprint256).toBe(certs.get('example-shop.com')!.fingerprint256);
    expect(secure).toMatchObject({ status: 301, headers: { location: 'https://example-shop.com/p?q=1' } });
    const plain = await http('www.example-shop.com', '/p?q=1');
    expect(plain).toMatchObject({ status: 301, headers: { location: 'https://example-shop.com/p?q=1' } });
    expect(JSON.parse((await https('example-shop.com', '/apex')).body).url).toBe('/apex');
  });

  it('redirects plain HTTP of a connected domain to HTTPS with 308', async () => {
    const res = await http('proxy.customer-a.com', '/a/b?x=1');
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('https://proxy.customer-a.com/a/b?x=1');
    expect((await http('nocert.customer-a.com', '/')).status).toBe(308);
  });

  it('answers ACME HTTP-01 challenges from acme_challenges for any hostname, 404 when unknown or expired', async () => {
    await t.db.query(
      `insert into acme_challenges (token, key_authorization, hostname, expires_at) values
       ('tok_live-1', 'tok_live-1.thumbprint', 'new.customer-a.com', now() + interval '1 hour'),
       ('tok_old', 'tok_old.thumbprint', 'new.customer-a.com', now() - interval '1 second')`,
    );
    const live = await http('new.customer-a.com', '/.well-known/acme-challenge/tok_live-1');
    expect(live).toMatchObject({ status: 200, body: 'tok_live-1.thumbprint' });
    expect(live.headers['content-type']).toBe('text/plain');
    expect((await http('proxy.customer-a.com', '/.well-known/acme-challenge/tok_live-1')).status).toBe(200);
    expect((await http('new.customer-a.com', '/.well-known/acme-challenge/tok_old')).status).toBe(404);
    expect((await http('new.customer-a.com', '/.well-known/acme-challenge/nope')).status).toBe(404);
  });

  it('answers unknown hostnames with a plain 404 page and no certificate', async () => {
    const res = await http('unknown.customer-a.com', '/');
    expect(res.status).toBe(404);
    expect(res.body).toContain('Site not found');
    await expect(tlsHandshake(ports.https, 'unknown.customer-a.com')).rejects.toThrow();
    await expect(tlsHandshake(ports.https, 'nocert.customer-a.com')).rejects.toThrow();
  });

  it('refuses a request whose Host is not the name of its TLS connection (421)', async () => {
    const res = await https('proxy.customer-a.com', '/', { headers: { host: 'keephost.customer-a.com' } });
    expect(res.status).toBe(421);
  });

  it('answers 502 when the origin is down', async () => {
    const res = await https('down.customer-a.com', '/');
    expect(res.status).toBe(502);
    expect(res.body).toContain('The origin server of this site is not reachable');
  });

  it('refuses an origin name that rebinds to a private address at connect time (502, nothing sent)', async () => {
    // Created while it resolved to 127.0.0.1 (allowed here), then rebound to 127.0.0.2, which is not
    // allowed but where an origin listens: only the connect-time check keeps the request from it.
    // The monitor's first probe would fail the domain after 10 s; the requests below come well before it.
    const domain = await connect('rebind.customer-a.com', {
      originUrl: `http://rebind.saas-test.net:${rebindTarget.port}`,
    });
    dns.setRecords('rebind.saas-test.net', [{ type: 'A', data: '127.0.0.2' }]);
    const started = Date.now();
    const res = await https('rebind.customer-a.com', '/secret');
    expect(res.status).toBe(502);
    expect(res.body).toContain('not reachable');
    expect(res.body).not.toMatch(/127\.0\.0\.2|private|blocked|loopback/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(rebindTarget.requests).toEqual([]);

    // Once the domain has failed (the origin check of a probe), it is not served at all.
    await request(t.server).post(`/v1/domains/${domain.id}/check`).set('authorization', `Bearer ${key}`).expect(200);
    const inactive = await eventually(
      () => https('rebind.customer-a.com', '/'),
      (answer) => answer.status === 503,
      { timeoutMs: 5_000, everyMs: 25, what: 'the edge to stop serving the failed domain' },
    );
    expect(inactive.status).toBe(503);
    expect(inactive.body).toContain('not active');
    expect((await http('rebind.customer-a.com', '/')).status).toBe(503);
  });

  it('refuses loopback origins, literal or by name, on an edge without OUTBOUND_ALLOW_CIDRS', async () => {
    expect(JSON.parse((await https('loop.customer-a.com', '/allowed-here')).body).url).toBe('/allowed-here');
    let strictPorts = { http: 0, https: 0 };
    strictEdge = await retryOnPortCollision(async () => {
      strictPorts = { http: await freePort(), https: await freePort() };
      return startEdgeApp(t.db.url, {
        ...domainEnv(dns.address),
        EDGE_HTTP_PORT: String(strictPorts.http),
        EDGE_HTTPS_PORT: String(strictPorts.https),
      });
    });
    const before = origin.requests.length;
    for (const hostname of ['loop.customer-a.com', 'proxy.customer-a.com']) {
      const res = await edgeRequest('https', { port: strictPorts.https, hostname, ca: ca.certPem });
      expect(res.fingerprint256).toBe(certs.get(hostname)!.fingerprint256);
      expect(res.status).toBe(502);
    }
    expect(origin.requests.length).toBe(before);
  });

  it('answers 504 when the origin goes silent longer than the idle timeout', async () => {
    let impatient = { http: 0, https: 0 };
    impatientEdge = await retryOnPortCollision(async () => {
      impatient = { http: await freePort(), https: await freePort() };
      return startEdgeApp(
        t.db.url,
        {
          EDGE_HTTP_PORT: String(impatient.http),
          EDGE_HTTPS_PORT: String(impatient.https),
          OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
        },
        { idleTimeoutMs: 300 },
      );
    });
    const started = Date.now();
    const res = await edgeRequest('https', {
      port: impatient.https,
      hostname: 'keephost.customer-a.com',
      path: '/hang',
      ca: ca.certPem,
    });
    expect(res.status).toBe(504);
    expect(res.body).toContain('did not answer in time');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('passes WebSocket upgrades through to the origin', async () => {
    const echo = await websocketEcho(ports.https, 'proxy.customer-a.com', ca.certPem, 'hello');
    expect(echo).toEqual({ status: 101, acceptValid: true, reply: 'echo:hello' });
    const handshake = origin.requests.find((r) => r.url === '/base/ws');
    expect(handshake?.headers).toMatchObject({ upgrade: 'websocket', 'x-forwarded-proto': 'https' });
  });

  it('serves a replaced certificate within a second of its storing, with no message on the bus', async () => {
    const hostname = 'keephost.customer-a.com';
    const old = certs.get(hostname)!;
    expect(await tlsHandshake(ports.https, hostname, ca.certPem)).toBe(old.fingerprint256);
    const renewed = issueCertificate({ hostnames: [hostname], issuer: ca });
    const cpu = startCpuAccounting();
    const stored = Date.now();
    // Straight into the table: the change log's trigger is what tells the edges.
    await storeCertificate(t.db, domains.get(hostname)!, renewed);
    const served = await eventually(
      () => tlsHandshake(ports.https, hostname, ca.certPem),
      (fingerprint) => fingerprint === renewed.fingerprint256,
      { timeoutMs: 5_000, everyMs: 25, what: 'the renewed certificate' },
    );
    const tookMs = Date.now() - stored;
    expect(served).toBe(renewed.fingerprint256);
    // The second is judged on a machine not busy with other work (CI once took 1,425 ms with the
    // whole suite on its two cores); that the renewed certificate is served is asserted either way.
    judgeTimes(cpu.stop(), 'replaced certificate', () => expect(tookMs).toBeLessThan(1_000));
  });

  it('answers Caddy on-demand TLS asks: 200 only for a live domain with correct DNS', async () => {
    const ask = (domain?: string) =>
      request(t.server)
        .get('/edge/ask')
        .query(domain ? { domain } : {});
    const shop = await connect('shop.customer-a.com', { originUrl: origin.url }, false);
    await request(t.server).post(`/v1/domains/${shop.id}/check`).set('authorization', `Bearer ${key}`).expect(200);
    // The check's new monitor status reaches the edge's replica within a second.
    const allowed = await eventually(
      () => ask('Shop.Customer-A.com.'),
      (res) => res.status === 200,
      { timeoutMs: 1_000, everyMs: 25, what: 'the ask to allow the checked domain' },
    );
    expect(allowed.body).toEqual({
      allowed: true,
      hostname: 'shop.customer-a.com',
    });
    await ask('proxy.customer-a.com').expect(404);
    await ask('unknown.customer-a.com').expect(404);
    await ask('www.example-shop.com').expect(404);
    await ask().expect(400);
  });

  it('counts requests, upstream latency and handshakes on /metrics', async () => {
    const metrics = async () => (await request(t.server).get('/metrics').expect(200)).text;
    const value = (text: string, series: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${series} `))
          ?.split(' ')[1] ?? 0,
      );
    const SERIES = [
      'edge_requests_total{outcome="proxied"}',
      'edge_requests_total{outcome="origin_blocked"}',
      'edge_upstream_seconds_count',
      'edge_tls_handshakes_total{outcome="ok"}',
      'edge_sni_lookups_total{result="certificate"}',
      'edge_sni_lookups_total{result="unknown_host"}',
    ];
    const blocked = await connect('blocked.customer-a.com', {
      originUrl: `http://blocked.saas-test.net:${rebindTarget.port}`,
    });
    dns.setRecords('blocked.saas-test.net', [{ type: 'A', data: '127.0.0.2' }]);
    const before = await metrics();

    expect((await https('proxy.customer-a.com', '/counted')).status).toBe(200);
    expect((await https(blocked.hostname, '/counted')).status).toBe(502);
    await expect(tlsHandshake(ports.https, 'unknown.customer-a.com')).rejects.toThrow();

    const after = await metrics();
    const deltas = Object.fromEntries(SERIES.map((series) => [series, value(after, series) - value(before, series)]));
    expect(deltas).toEqual({
      'edge_requests_total{outcome="proxied"}': 1,
      'edge_requests_total{outcome="origin_blocked"}': 1,
      // Only the proxied request reached an origin.
      edge_upstream_seconds_count: 1,
      'edge_tls_handshakes_total{outcome="ok"}': 2,
      'edge_sni_lookups_total{result="certificate"}': 2,
      'edge_sni_lookups_total{result="unknown_host"}': 1,
    });
  });

  it('puts right what its change log could not carry (the periodic reconcile)', async () => {
    const writer = t.app.get(EdgeReplicaWriter);
    const replica = t.app.get<EdgeReplica>(EDGE_REPLICA);
    // In step with PostgreSQL first (a domain created last may still be on its way through the log).
    const inStep = { written: 0, deleted: 0 };
    await eventually(
      () => writer.reconcile(),
      (fixed) => fixed.written + fixed.deleted === 0,
      { what: 'no drift' },
    );
    const downKey = replicaKey('down.customer-a.com');
    const redirectKey = replicaKey('redirect.customer-a.com');
    const [down, redirect] = [(await replica.get(downKey))!, (await replica.get(redirectKey))!];
    // Writes no change log saw: a changed entry, a lost one, and one for a hostname never connected.
    await replica.put(downKey, JSON.stringify({ ...JSON.parse(down), originUrl: `${origin.url}/wrong` }));
    await replica.delete(redirectKey);
    const stray = { ...JSON.parse(down), hostname: 'stray.customer-z.com', domainId: 'dom_stray' };
    await replica.put(replicaKey('stray.customer-z.com'), JSON.stringify(stray));
    await eventually(
      () => http('stray.customer-z.com', '/'),
      (res) => res.status === 308,
      { timeoutMs: 2_000, everyMs: 25, what: 'the edge to serve the stray entry' },
    );
    expect((await http('redirect.customer-a.com', '/')).status).toBe(404);

    // (A monitor probe may change a domain meanwhile: at least the two written.)
    const fixed = await writer.reconcile();
    expect(fixed.deleted).toBe(1);
    expect(fixed.written).toBeGreaterThanOrEqual(2);
    expect(await replica.get(downKey)).toBe(down);
    expect(await replica.get(redirectKey)).toBe(redirect);
    expect(await replica.get(replicaKey('stray.customer-z.com'))).toBeUndefined();
    await eventually(
      async () => [
        (await http('stray.customer-z.com', '/')).status,
        (await http('redirect.customer-a.com', '/')).status,
      ],
      ([strayStatus, redirectStatus]) => strayStatus === 404 && redirectStatus === 308,
      { timeoutMs: 2_000, everyMs: 25, what: 'the edge to follow the reconciled replica' },
    );
    expect(
      await eventually(
        () => writer.reconcile(),
        (again) => again.written === 0,
      ),
    ).toEqual(inStep);
  });
});

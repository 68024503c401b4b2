import { AUTH_KIND } from '@app/auth';
import { CLOCK } from '@app/kernel';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import {
  DnsServer,
  ORIGIN_URL,
  TestApp,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import { Script } from 'node:vm';
import request from 'supertest';
import { CloudflareFake, startCloudflareFake } from './fakes/cloudflare-server';

interface Route {
  method: string;
  path: string;
}

/** Every authenticated route the app serves, read from the controllers themselves (so new ones are covered). */
function authenticatedRoutes(t: TestApp): Route[] {
  const routes: Route[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as { prototype: Record<string, unknown> } | undefined;
      if (!controller?.prototype) continue;
      const base = [Reflect.getMetadata(PATH_METADATA, controller)].flat()[0] ?? '';
      for (const name of Object.getOwnPropertyNames(controller.prototype).filter((n) => n !== 'constructor')) {
        const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as unknown;
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const kind = Reflect.getMetadata(AUTH_KIND, handler) ?? Reflect.getMetadata(AUTH_KIND, controller);
        if (kind === 'public' || kind === 'admin') continue;
        const sub = [Reflect.getMetadata(PATH_METADATA, handler)].flat()[0] as string;
        const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
        routes.push({ method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number], path });
      }
    }
  }
  return routes.filter((r) => r.path.startsWith('/v1/'));
}

const SESSION_ROUTES = new Set([
  'GET /v1/domains/:id',
  'GET /v1/domains/:id/instructions',
  'POST /v1/domains/:id/check',
  'POST /v1/domains/:id/dns/apply',
]);

class ManualClock {
  at = Date.now();
  now = () => this.at;
}

describe('connect sessions', () => {
  let dns: DnsServer;
  let cloudflare: CloudflareFake;
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let domainId: string;
  let siblingId: string;
  let foreignId: string;
  const clock = new ManualClock();

  const mint = (id: string, body?: object, k = key) =>
    request(t.server).post(`/v1/domains/${id}/connect-session`).set('authorization', `Bearer ${k}`).send(body);
  const call = (route: Route, path: string, token: string) => {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const req = request(t.server)[method](path).set('authorization', `Bearer ${token}`);
    if (route.path.endsWith('/dns/apply')) return req.send({ provider: 'cloudflare', token: 'cf-good' });
    return method === 'get' || method === 'delete' ? req : req.send({});
  };

  async function connect(hostname: string, k = key): Promise<string> {
    const res = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${k}`)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    return res.body.domain.id as string;
  }

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    cloudflare = await startCloudflareFake({
      tokens: { 'cf-good': { permissions: ['zone:read', 'dns:edit'] } },
      zones: ['customer-a.com'],
    });
    t = await startTestApp({
      env: { ...domainEnv(dns.address), CLOUDFLARE_API_URL: cloudflare.url },
      overrides: [{ provide: CLOCK, useValue: clock }],
    });
    [key, otherKey] = (await Promise.all([createWorkspaceVia(t.server), createWorkspaceVia(t.server)])).map(
      (w) => w.apiKey,
    );
    [domainId, siblingId, foreignId] = await Promise.all([
      connect('shop.customer-a.com'),
      connect('wrong.customer-a.com'),
      connect('missing.customer-a.com', otherKey),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await cloudflare?.close();
    await dns?.close();
  });

  it('mints a token for one domain: default one hour, custom ttl, 404 for missing or foreign domains', async () => {
    clock.at = Date.now();
    const res = await mint(domainId).expect(200);
    expect(res.body).toEqual({
      connectSession: {
        token: expect.stringMatching(/^cs_[\w-]+\.[\w-]+\.[\w-]+$/),
        expiresAt: expect.any(String),
        domainId,
        hostname: 'shop.customer-a.com',
      },
    });
    const ttl = (Date.parse(res.body.connectSession.expiresAt) - clock.now()) / 1000;
    expect(ttl).toBeGreaterThan(3590);
    expect(ttl).toBeLessThanOrEqual(3600);
    const short = await mint(domainId, { ttlSeconds: 60 }).expect(200);
    expect(Date.parse(short.body.connectSession.expiresAt)).toBeLessThanOrEqual(clock.now() + 60_000);
    expect(Date.parse(short.body.connectSession.expiresAt)).toBeGreaterThan(clock.now() + 59_000);
    // Unstored: two mints are two different tokens, and nothing about them is written to the database.
    expect(short.body.connectSession.token).not.toBe(res.body.connectSession.token);
    await mint(foreignId).expect(404);
    await mint('dom_doesnotexist').expect(404);
    await request(t.server).post(`/v1/domains/${domainId}/connect-session`).expect(401);
  });

  it('rejects a ttl outside 60-86400 and unknown fields with 400', async () => {
    for (const body of [
      { ttlSeconds: 59 },
      { ttlSeconds: 86_401 },
      { ttlSeconds: 'soon' },
      { ttlSeconds: 1.5 },
      { scope: 'all' },
    ]) {
      const res = await mint(domainId, body).expect(400);
      expect(res.body.error).toBe('bad_request');
    }
    await mint(domainId, { ttlSeconds: 86_400 }).expect(200);
  });

  it('scope matrix: every /v1 endpoint with a session token', async () => {
    const token = (await mint(domainId).expect(200)).body.connectSession.token as string;
    const routes = authenticatedRoutes(t);
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining([...SESSION_ROUTES]));
    const seen: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      const own = route.path.replace(':id', domainId).replace(/:(\w+)/g, 'x_$1');
      const res = await call(route, own, token);
      seen.push(`${name} -> ${res.status}`);
      if (SESSION_ROUTES.has(name)) {
        expect([name, res.status, res.body]).toEqual([name, 200, expect.anything()]);
        // The same route for a sibling domain of the same workspace, or another workspace's domain: 403.
        for (const other of [siblingId, foreignId]) {
          const denied = await call(route, route.path.replace(':id', other), token);
          expect([name, denied.status, denied.body.error]).toEqual([name, 403, 'forbidden']);
        }
      } else {
        expect([name, res.status, res.body.error]).toEqual([name, 403, 'forbidden']);
      }
    }
    expect(seen.length).toBe(routes.length);
  });

  it('a session reads its domain, checks it and mints nothing', async () => {
    const token = (await mint(domainId).expect(200)).body.connectSession.token as string;
    const got = await request(t.server)
      .get(`/v1/domains/${domainId}`)
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(got.body.domain).toMatchObject({ id: domainId, hostname: 'shop.customer-a.com' });
    const checked = await request(t.server)
      .post(`/v1/domains/${domainId}/check`)
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(checked.body.domain).toMatchObject({ monitorStatus: 'pending_ssl' });
    const again = await mint(domainId, {}, token).expect(403);
    expect(again.body).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/connect-session/) });
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${token}`).expect(403);
  });

  it("the end customer sees the widget's fields of the domain, nothing private to the SaaS", async () => {
    const project = await request(t.server)
      .post('/v1/projects')
      .set('authorization', `Bearer ${key}`)
      .send({ name: 'private project' })
      .expect(201);
    const created = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${key}`)
      .send({
        hostname: 'private.customer-a.com',
        originUrl: `${ORIGIN_URL}/tenant-42-private-path`,
        metadata: { internalCustomerId: 'saas-private-cust-9' },
        projectId: project.body.project.id,
      })
      .expect(201);
    const id = created.body.domain.id as string;
    const token = (await mint(id).expect(200)).body.connectSession.token as string;
    const asSession = { authorization: `Bearer ${token}` };
    const answers = [
      await request(t.server).get(`/v1/domains/${id}`).set(asSession).expect(200),
      await request(t.server).post(`/v1/domains/${id}/check`).set(asSession).expect(200),
      await request(t.server)
        .post(`/v1/domains/${id}/dns/apply`)
        .set(asSession)
        .send({ provider: 'cloudflare', token: 'cf-good' })
        .expect(200),
    ];
    for (const answer of answers) {
      expect(Object.keys(answer.body.domain as object).sort()).toEqual(
        [
          'apex',
          'certificate',
          'dnsRecords',
          'hostname',
          'id',
          'lastCheckedAt',
          'monitorMessage',
          'monitorStatus',
          'registrarDns',
          'status',
          'statusReason',
          'verifiedAt',
        ].sort(),
      );
      expect(answer.body.domain).toMatchObject({ id, hostname: 'private.customer-a.com' });
      const text = JSON.stringify(answer.body);
      for (const secret of ['tenant-42-private-path', 'saas-private-cust-9', project.body.project.id as string]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(answers[2].body.applied).toMatchObject({ provider: 'cloudflare' });
    // The SaaS's own credential still reads the whole domain.
    const full = await request(t.server).get(`/v1/domains/${id}`).set('authorization', `Bearer ${key}`).expect(200);
    expect(full.body.domain).toMatchObject({
      originUrl: `${ORIGIN_URL}/tenant-42-private-path`,
      metadata: { internalCustomerId: 'saas-private-cust-9' },
      projectId: project.body.project.id,
    });
  });

  it('expired and tampered tokens are 401 everywhere', async () => {
    const token = (await mint(domainId, { ttlSeconds: 60 }).expect(200)).body.connectSession.token as string;
    const [head, payload, signature] = token.slice(3).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `cs_${head}.${Buffer.from(JSON.stringify({ ...claims, dom: siblingId })).toString('base64url')}.${signature}`;
    const flipped = `cs_${head}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const unsigned = `cs_${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const routes = authenticatedRoutes(t);
    for (const bad of [forged, flipped, unsigned, 'cs_garbage', `${token}x`]) {
      for (const route of routes) {
        const res = await call(route, route.path.replace(':id', domainId).replace(/:(\w+)/g, 'x_$1'), bad);
        expect([`${route.method} ${route.path}`, res.status, res.body.error]).toEqual([
          `${route.method} ${route.path}`,
          401,
          'unauthorized',
        ]);
      }
    }
    await request(t.server).get(`/v1/domains/${domainId}`).set('authorization', `Bearer ${token}`).expect(200);
    clock.at += 61_000;
    const expired = await request(t.server)
      .get(`/v1/domains/${domainId}`)
      .set('authorization', `Bearer ${token}`)
      .expect(401);
    expect(expired.body).toMatchObject({ error: 'unauthorized' });
    clock.at = Date.now();
  });

  it('tokens signed with another SIGNING_SECRET are refused', async () => {
    const other = await startTestApp({
      env: { ...domainEnv(dns.address), SIGNING_SECRET: 'another-signing-secret-0123456789abcdef' },
    });
    try {
      const otherKeyThere = (await createWorkspaceVia(other.server)).apiKey;
      const created = await request(other.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${otherKeyThere}`)
        .send({ hostname: 'shop.customer-a.com', originUrl: ORIGIN_URL })
        .expect(201);
      const foreignToken = (
        await request(other.server)
          .post(`/v1/domains/${created.body.domain.id}/connect-session`)
          .set('authorization', `Bearer ${otherKeyThere}`)
          .expect(200)
      ).body.connectSession.token as string;
      await request(t.server)
        .get(`/v1/domains/${created.body.domain.id}`)
        .set('authorization', `Bearer ${foreignToken}`)
        .expect(401);
    } finally {
      await other.close();
    }
  });

  it('rate limits count a session as its own key: the API key budget is not spent by widgets', async () => {
    // One fixed moment, so every call falls in the same window.
    const frozen = { now: () => Date.parse('2026-06-01T12:00:10Z') };
    const limited = await startTestApp({
      env: { ...domainEnv(dns.address), RATE_LIMITS: 'on' },
      overrides: [{ provide: CLOCK, useValue: frozen }],
    });
    try {
      const k = (await createWorkspaceVia(limited.server)).apiKey;
      const created = await request(limited.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${k}`)
        .send({ hostname: 'limits.customer-a.com', originUrl: ORIGIN_URL })
        .expect(201);
      const id = created.body.domain.id as string;
      const token = (
        await request(limited.server)
          .post(`/v1/domains/${id}/connect-session`)
          .set('authorization', `Bearer ${k}`)
          .expect(200)
      ).body.connectSession.token as string;
      const get = (bearer: string) =>
        request(limited.server).get(`/v1/domains/${id}`).set('authorization', `Bearer ${bearer}`);
      for (let i = 0; i < 60; i++) await get(token).expect(200);
      const over = await get(token).expect(429);
      expect(over.body).toMatchObject({ error: 'rate_limited', details: { action: 'api' } });
      // The API key has used 2 of its 60 (create, mint): the session's 61 calls were not its.
      const own = await get(k).expect(200);
      expect(own.headers['x-ratelimit-remaining']).toBe('57');
    } finally {
      await limited.close();
    }
  });

  it('answers CORS preflights for the session endpoints and widget.js only', async () => {
    for (const [path, method] of [
      [`/v1/domains/${domainId}`, 'GET'],
      [`/v1/domains/${domainId}/instructions`, 'GET'],
      [`/v1/domains/${domainId}/check`, 'POST'],
      [`/v1/domains/${domainId}/dns/apply`, 'POST'],
      ['/widget.js', 'GET'],
    ]) {
      const res = await request(t.server)
        .options(path)
        .set('origin', 'https://saas.example')
        .set('access-control-request-method', method)
        .set('access-control-request-headers', 'authorization, content-type')
        .expect(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain(method);
      expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type');
    }
    const token = (await mint(domainId).expect(200)).body.connectSession.token as string;
    const got = await request(t.server)
      .get(`/v1/domains/${domainId}`)
      .set('origin', 'https://saas.example')
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(got.headers['access-control-allow-origin']).toBe('*');
    expect(got.headers['access-control-expose-headers']).toContain('x-service-request-id');
    const denied = await request(t.server).get(`/v1/domains/${siblingId}`).set('authorization', `Bearer ${token}`);
    expect(denied.headers['access-control-allow-origin']).toBe('*'); // the widget can read the 403
    for (const path of [
      '/v1/domains',
      `/v1/domains/${domainId}/connect-session`,
      '/v1/webhook-endpoints',
      '/admin/workspaces',
    ]) {
      const res = await request(t.server)
        .options(path)
        .set('origin', 'https://saas.example')
        .set('access-control-request-method', 'POST');
      expect([path, res.headers['access-control-allow-origin']]).toEqual([path, undefined]);
    }
    const patch = await request(t.server)
      .options(`/v1/domains/${domainId}`)
      .set('access-control-request-method', 'PATCH');
    expect(patch.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    const list = await request(t.server).get('/v1/domains').set('authorization', `Bearer ${key}`).expect(200);
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the widget script and the demo page publicly', async () => {
    const script = await request(t.server).get('/widget.js').expect(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.text).toContain('CustomDomainWidget');
    expect(() => new Script(script.text)).not.toThrow(); // parses as a classic script
    const demo = await request(t.server).get('/widget/demo?token=cs_abc.def.ghi').expect(200);
    expect(demo.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(demo.text).toContain("token: 'cs_abc.def.ghi'");
    const hostile = await request(t.server)
      .get(`/widget/demo?token=${encodeURIComponent("cs_x'</script><script>alert(1)")}`)
      .expect(200);
    expect(hostile.text).not.toContain('alert(1)');
    expect(hostile.text).toContain("The token in this page's address is not a connect-session token");
  });
});

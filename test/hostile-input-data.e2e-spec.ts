import { ModulesContainer } from '@nestjs/core';
import {
  DnsServer,
  ORIGIN_URL,
  REGISTRANT,
  TEST_ADMIN_TOKEN,
  TestApp,
  createConsoleUser,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import request from 'supertest';
import type { RouteInfo } from '../libs/openapi/src/route-scanner';
import { scanRoutes } from '../libs/openapi/src/route-scanner';
import { bodyFields, bodyWith } from './support/body-fields';

/**
 * Values PostgreSQL can never store: NUL, lone surrogates, invisible characters in
 * addresses, JSON nested thousands of levels deep and cursors at instants PostgreSQL cannot
 * represent are refused at the door with 400 naming the field, on every route that takes them;
 * never a 500 or a 503 "retry shortly". Behind the door, a data error PostgreSQL raises is a 400 too.
 */
describe('values the database can never store', () => {
  let dns: DnsServer;
  let t: TestApp;
  let key: string;
  let workspaceId: string;
  let domainId: string;
  let routes: RouteInfo[];
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const OPERATOR = { email: 'data-ops@example.com', password: 'operator-password-1' };

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .send({ name: 'ws', paymentMethod: 'pm_card_visa' })
      .expect(201);
    key = ws.body.apiKey as string;
    workspaceId = ws.body.workspace.id as string;
    const domain = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${key}`)
      .send({ hostname: 'shop.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    domainId = domain.body.domain.id as string;
    routes = scanRoutes(t.app.get(ModulesContainer));
    await createConsoleUser(t, { ...OPERATOR, operator: true });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const authFor = (route: RouteInfo): Record<string, string> =>
    route.auth === 'admin' ? admin : route.auth === 'public' ? {} : { authorization: `Bearer ${key}` };

  /** The route's path with every parameter replaced (encoded). */
  const pathOf = (route: RouteInfo, value = 'x_0000000000000000000000') =>
    route.path.replace(/\{[^}]+\}/g, encodeURIComponent(value));

  const send = (route: RouteInfo, body?: unknown, path = pathOf(route)) => {
    const req = request(t.server)[route.method.toLowerCase() as 'post'](path).set(authFor(route));
    return body === undefined ? req : req.set('content-type', 'application/json').send(JSON.stringify(body));
  };

  /** 400 bad_request in the envelope, `field` (or one of them) named in details.fields with a problem matching `problem`. */
  function expectNamed(res: request.Response, field: string | string[], problem: RegExp, what: string): void {
    const fields = (res.body?.details?.fields ?? []) as { field: string; problems: string[] }[];
    const named = fields.find((f) => [field].flat().includes(f.field));
    if (res.status !== 400 || res.body.error !== 'bad_request' || !named || !problem.test(named.problems[0])) {
      throw new Error(
        `${what}: expected 400 naming ${[field].flat().join(' or ')} (${String(problem)}), got ${res.status} ${JSON.stringify(res.body)}`,
      );
    }
  }

  const bodyRoutes = () => routes.filter((r): r is RouteInfo & { body: NonNullable<RouteInfo['body']> } => !!r.body);

  it('refuses a NUL in every path parameter of every route, naming it', async () => {
    const withParams = routes.filter((r) => r.pathParams.length);
    expect(withParams.length).toBeGreaterThan(30);
    for (const route of withParams) {
      const res = await send(route, undefined, pathOf(route, 'dom_\u0000'));
      expectNamed(res, route.pathParams, /NUL character \(U\+0000\)/, `${route.method} ${route.path}`);
    }
    // GET /v1/domains/{id} on its own, with the domain read's fast path in front of it.
    const read = await request(t.server).get('/v1/domains/dom_%00').set('authorization', `Bearer ${key}`);
    expectNamed(read, 'id', /NUL/, 'GET /v1/domains/dom_%00');
  });

  it('refuses a NUL in every query parameter of every route, naming it', async () => {
    let checked = 0;
    for (const route of routes.filter((r) => r.query)) {
      for (const field of bodyFields(route.query!)) {
        const res = await send(route).query({ [field.name]: 'x\u0000' });
        expectNamed(res, field.name, /NUL/, `${route.method} ${route.path}?${field.name}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('refuses a NUL and a lone surrogate in every field of every body, nested ones included, naming it', async () => {
    let checked = 0;
    for (const route of bodyRoutes()) {
      for (const field of bodyFields(route.body)) {
        for (const [value, problem] of [
          ['a\u0000b', /NUL character \(U\+0000\)/],
          ['a\ud800b', /lone UTF-16 surrogate \(U\+D800\)/],
          ['\udfff', /lone UTF-16 surrogate \(U\+DFFF\)/],
        ] as const) {
          const res = await send(route, bodyWith(field.path, value));
          expectNamed(res, field.name, problem, `${route.method} ${route.path} ${field.name}=${JSON.stringify(value)}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  it('refuses them in free-form values and keys: metadata, registrant fields, customerReference, DNS records', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const cases: [string, string, unknown, string][] = [
      [
        'post',
        '/v1/domains',
        { hostname: 'a.customer-a.com', originUrl: ORIGIN_URL, metadata: { note: 'a\u0000' } },
        'metadata.note',
      ],
      ['patch', `/v1/domains/${domainId}`, { metadata: { deep: { list: ['ok', '\ud800'] } } }, 'metadata.deep.list.1'],
      ['patch', `/v1/domains/${domainId}`, { metadata: { 'key\u0000': 'v' } }, 'metadata'],
      ['post', '/v1/projects', { name: 'p', metadata: { '\udc00': 1 } }, 'metadata'],
      [
        'post',
        '/v1/domain-purchases',
        { hostname: 'nul-buy.com', registrant: REGISTRANT, customerReference: 'ref\u0000' },
        'customerReference',
      ],
      [
        'post',
        '/v1/domain-purchases',
        { hostname: 'nul-buy.com', registrant: { ...REGISTRANT, city: 'Lon\ud800don' } },
        'registrant.city',
      ],
      [
        'put',
        '/v1/domain-purchases/pur_x/dns',
        { records: [{ type: 'TXT', name: '@', value: 'v=\u0000' }] },
        'records.0.value',
      ],
      [
        'put',
        '/v1/domain-purchases/pur_x/dns',
        { records: [{ type: 'TXT', name: '\ud800', value: 'x' }] },
        'records.0.name',
      ],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await request(t.server)
        [method as 'post'](path)
        .set(auth)
        .set('content-type', 'application/json')
        .send(JSON.stringify(body));
      expectNamed(res, field, /NUL|surrogate/, `${method} ${path} ${field}`);
    }
    // Nothing was stored or changed.
    const domain = await request(t.server).get(`/v1/domains/${domainId}`).set(auth).expect(200);
    expect(domain.body.domain.metadata).toEqual({});
    expect(await t.db.query("select 1 from purchases where hostname = 'nul-buy.com'")).toEqual([]);
  });

  it('refuses invisible and bidi characters in URLs, hostnames and e-mails (create, update, bulk, registrant, console user)', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const post = (path: string, body: unknown, headers: Record<string, string> = auth) =>
      request(t.server).post(path).set(headers).set('content-type', 'application/json').send(JSON.stringify(body));
    const invisible = /invisible or control character/;
    expectNamed(
      await post('/v1/domains', { hostname: 'zw.customer-a.com', originUrl: `${ORIGIN_URL}\u200b` }),
      'originUrl',
      /U\+200B/,
      'create originUrl',
    );
    expectNamed(
      await post('/v1/domains', { hostname: 'zw\u200b.customer-a.com', originUrl: ORIGIN_URL }),
      'hostname',
      invisible,
      'create hostname',
    );
    expectNamed(
      await request(t.server)
        .patch(`/v1/domains/${domainId}`)
        .set(auth)
        .send({ originUrl: `${ORIGIN_URL}/\u202eexe.txt` }),
      'originUrl',
      /U\+202E/,
      'update originUrl',
    );
    expectNamed(
      await post('/v1/domains/bulk', {
        domains: [
          { hostname: 'ok.customer-a.com', originUrl: ORIGIN_URL },
          { hostname: 'zw2.customer-a.com', originUrl: `\ufeff${ORIGIN_URL}` },
        ],
      }),
      'domains.1.originUrl',
      /U\+FEFF/,
      'bulk originUrl',
    );
    expectNamed(
      await post('/v1/domain-purchases', {
        hostname: 'rtl-buy.com',
        registrant: { ...REGISTRANT, email: 'ada\u200f@example.com' },
      }),
      'registrant.email',
      /U\+200F/,
      'registrant email',
    );
    expectNamed(
      await post(
        '/admin/console-users',
        { email: 'rtl\u2067@example.com', password: 'operator-password-1', operator: true },
        admin,
      ),
      'email',
      /U\+2067/,
      'console user email',
    );
    expectNamed(
      await post(
        '/admin/console-users',
        { email: 'x\ud800@example.com', password: 'operator-password-1', operator: true },
        admin,
      ),
      'email',
      /surrogate/,
      'console user email surrogate',
    );
    expectNamed(
      await post('/v1/webhook-endpoints', { url: 'https://hooks.example.com/in\u200d' }),
      'url',
      /U\+200D/,
      'webhook url',
    );
    // The domain's origin is still the one that passed the checks; nothing else was created.
    const read = await request(t.server).get(`/v1/domains/${domainId}`).set(auth).expect(200);
    expect(read.body.domain.originUrl).toBe(ORIGIN_URL);
    expect(await t.db.query("select hostname from domains where hostname like '%zw%' or hostname like 'ok.%'")).toEqual(
      [],
    );
    // Free text keeps them: a right-to-left mark in metadata is the customer's own.
    await request(t.server)
      .patch(`/v1/domains/${domainId}`)
      .set(auth)
      .send({ metadata: { name: '\u200fשלום', url: 'https://x.example\u200b' } })
      .expect(200);
  });

  it('refuses JSON nested thousands of levels deep on every body-taking operation (400, not a stack overflow)', async () => {
    const nested = (levels: number, open: string, close: string, leaf = '1') =>
      `${open.repeat(levels)}${leaf}${close.repeat(levels)}`;
    const bodies = [
      `{"deep":${nested(3000, '{"a":', '}')}}`,
      `{"deep":${nested(20000, '[', ']')}}`,
      `{"deep":${nested(65, '[', ']')}}`,
    ];
    for (const route of bodyRoutes()) {
      for (const raw of bodies) {
        const res = await send(route).set('content-type', 'application/json').send(raw);
        expectNamed(res, 'deep', /deep is nested more than 64 levels deep/, `${route.method} ${route.path}`);
      }
    }
    // An idempotent POST too: the refusal comes before the body is fingerprinted.
    const res = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${key}`)
      .set('idempotency-key', 'deep-1')
      .set('content-type', 'application/json')
      .send(`{"hostname":"a.customer-a.com","originUrl":"${ORIGIN_URL}","metadata":${nested(200000, '[', ']')}}`);
    expectNamed(res, 'metadata', /nested more than 64/, 'POST /v1/domains with Idempotency-Key');
    // 64 levels are fine.
    await request(t.server)
      .post('/v1/projects')
      .set('authorization', `Bearer ${key}`)
      .set('content-type', 'application/json')
      .send(`{"name":"deep","metadata":{"a":${nested(62, '[', ']')}}}`)
      .expect(201);
  });

  it('refuses a cursor at an instant PostgreSQL cannot represent on every list, the console domain list too', async () => {
    const cursorAt = (createdAt: string, id = 'x') =>
      Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
    const cursors = [
      cursorAt('+275760-09-13T00:00:00.000Z'),
      cursorAt('0000-01-01T00:00:00.000Z'),
      cursorAt('+010000-01-01T00:00:00.000Z'),
      cursorAt('2026-02-30T00:00:00.000Z'),
      cursorAt('2026-01-01T00:00:00.000Z', 'dom_\u0000'),
    ];
    const lists = routes.filter(
      (r) => !r.pathParams.length && r.query && bodyFields(r.query).some((f) => f.name === 'cursor'),
    );
    expect(lists.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/v1/domains',
        '/v1/domain-purchases',
        '/v1/events',
        '/v1/webhook-endpoints',
        '/v1/projects',
      ]),
    );
    for (const route of lists) {
      for (const cursor of cursors) {
        const res = await send(route).query({ cursor });
        if (
          res.status !== 400 ||
          res.body.details?.field !== 'cursor' ||
          !/cursor is not valid/.test(res.body.message)
        ) {
          throw new Error(`${route.path} cursor ${cursor}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    const cookie = await consoleSession();
    for (const cursor of cursors) {
      const res = await request(t.server)
        .get(`/console/w/${workspaceId}/domains`)
        .query({ cursor })
        .set('cookie', cookie);
      expect([cursor, res.status]).toEqual([cursor, 400]);
      expect(res.text).toContain('cursor is not valid');
    }
  });

  it('console: a NUL in the domain search is a 400 page, not a 500', async () => {
    const cookie = await consoleSession();
    await request(t.server)
      .get(`/console/w/${workspaceId}/domains`)
      .query({ q: 'shop' })
      .set('cookie', cookie)
      .expect(200);
    const res = await request(t.server)
      .get(`/console/w/${workspaceId}/domains`)
      .query({ q: 'shop\u0000' })
      .set('cookie', cookie);
    expect(res.status).toBe(400);
    expect(res.text).toContain('NUL character');
  });

  it('behind the door: a data error PostgreSQL raises is 400 naming the column, in the API and in actor commands', async () => {
    // Values the door lets through that this database refuses, as a narrower column or a stricter type would.
    await t.db.query(`create function test_refuse_project() returns trigger language plpgsql as $$
      begin
        if new.name = 'too-long-for-the-db' then
          raise exception 'value too long for type character varying(10)' using errcode = '22001', column = 'name';
        end if;
        return new;
      end $$`);
    await t.db.query(
      'create trigger test_refuse_project before insert on projects for each row execute function test_refuse_project()',
    );
    await t.db.query(`create function test_refuse_domain() returns trigger language plpgsql as $$
      begin
        if new.state->'metadata'->>'refuse' = 'yes' then
          raise exception 'unsupported Unicode escape sequence' using errcode = '22P05';
        end if;
        return new;
      end $$`);
    await t.db.query(
      'create trigger test_refuse_domain before insert or update on domains for each row execute function test_refuse_domain()',
    );
    const auth = { authorization: `Bearer ${key}` };
    const project = await request(t.server).post('/v1/projects').set(auth).send({ name: 'too-long-for-the-db' });
    expect(project.status).toBe(400);
    expectNamed(project, 'name', /name is too long/, 'project insert refused by the database');
    expect(project.headers['retry-after']).toBeUndefined();

    // Through the domain actor (its snapshot write): a 400 at once, not a 500 nor a 503 after retries.
    const started = Date.now();
    const created = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'refused.customer-a.com', originUrl: ORIGIN_URL, metadata: { refuse: 'yes' } });
    expect([created.status, created.body.error]).toEqual([400, 'bad_request']);
    expect(created.body.message).toMatch(/cannot store/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const patched = await request(t.server)
      .patch(`/v1/domains/${domainId}`)
      .set(auth)
      .send({ metadata: { refuse: 'yes' } });
    expect([patched.status, patched.body.error]).toEqual([400, 'bad_request']);
    // The actor was not left holding the refused state.
    const read = await request(t.server).get(`/v1/domains/${domainId}`).set(auth).expect(200);
    expect(read.body.domain.metadata).not.toEqual({ refuse: 'yes' });
  });

  it('refuses a byte-order mark before a JSON body, and form bodies on the JSON API (forms stay on the console and OAuth)', async () => {
    const bom = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .set('content-type', 'application/json')
      .send('\ufeff{"name":"bom"}');
    expect(bom.status).toBe(400);
    expect(bom.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/byte-order mark \(U\+FEFF\)/) });

    const unsupported = {
      error: 'bad_request',
      message: expect.stringMatching(/send the body as JSON with content-type application\/json/),
    };
    const forms: [string, string, Record<string, string>][] = [
      ['post', '/admin/workspaces', admin],
      ['put', `/admin/workspaces/${workspaceId}/payment-method`, admin],
      ['post', '/v1/events/evt_x/replay', { authorization: `Bearer ${key}` }],
      ['post', '/v1/domains', { authorization: `Bearer ${key}` }],
      ['patch', `/v1/domains/${domainId}`, { authorization: `Bearer ${key}` }],
      ['post', '/v1/webhook-endpoints', { authorization: `Bearer ${key}` }],
    ];
    for (const [method, path, headers] of forms) {
      const res = await request(t.server)
        [method as 'post'](path)
        .set(headers)
        .type('form')
        .send({ hostname: 'form.customer-a.com', originUrl: ORIGIN_URL, name: 'x', paymentMethod: 'pm_card_visa' });
      expect([method, path, res.status, res.body]).toEqual([method, path, 400, unsupported]);
    }
    // OAuth's token endpoint reads forms (RFC 6749): an unknown client, not an unsupported body.
    const token = await request(t.server)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'nothing' });
    expect([token.status, token.body.error]).toEqual([401, 'invalid_client']);
    // The console's sign-in form still signs in.
    expect(await consoleSession()).toMatch(/^cd_console=/);
    // And a NUL in a form field is refused there too.
    const form = await request(t.server)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'a\u0000', client_secret: 'x' });
    expect(form.status).toBe(400);
  });

  /** A console session cookie through the password form (double-submit token first). */
  async function consoleSession(): Promise<string> {
    const form = await request(t.server).get('/console/sign-in').expect(200);
    const token = /name="_signin" value="([^"]+)"/.exec(form.text)![1];
    const signinCookie = ([] as string[]).concat(form.headers['set-cookie'] ?? [])[0].split(';')[0];
    const res = await request(t.server)
      .post('/console/sign-in')
      .set('cookie', signinCookie)
      .type('form')
      .send({ _signin: token, email: OPERATOR.email, password: OPERATOR.password });
    expect(res.status).toBe(303);
    const session = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('cd_console='));
    return session!.split(';')[0];
  }
});

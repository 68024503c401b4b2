import { OPERATIONS, OpenApiService } from '@app/openapi';
import { TestApp, startTestApp } from '@test/support';
import request from 'supertest';

type Json = Record<string, any>;

/** Every `$ref` in the document, to prove each one resolves. */
function refsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsOf(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsOf(value, found);
    }
  }
  return found;
}

describe('OpenAPI document and reference page', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await startTestApp({});
    doc = (await request(t.server).get('/openapi.json').expect(200)).body;
  });
  afterAll(async () => t?.close());

  it('documents every route the app serves, and nothing it does not', () => {
    const routes = t.app
      .get(OpenApiService)
      .routes()
      .map((r) => `${r.method} ${r.path}`);
    expect(routes.filter((key) => !OPERATIONS[key])).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((key) => !routes.includes(key))).toEqual([]);
    const documented = Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
      Object.keys(ops as Json).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual([...routes].sort());
  });

  it('has every endpoint of the spec', () => {
    for (const key of [
      'GET /healthz',
      'GET /v1/domains',
      'POST /v1/domains',
      'GET /v1/domains/{id}',
      'PATCH /v1/domains/{id}',
      'DELETE /v1/domains/{id}',
      'POST /v1/domains/{id}/check',
      'POST /v1/webhook-endpoints',
      'GET /v1/domains/{id}/instructions',
      'POST /v1/domains/{id}/connect-session',
      'POST /v1/domains/{id}/dns/apply',
      'GET /v1/domain-purchases/check',
      'GET /v1/domain-purchases',
      'POST /v1/domain-purchases',
      'GET /v1/domain-purchases/{id}',
      'PATCH /v1/domain-purchases/{id}',
      'GET /v1/domain-purchases/{id}/details',
      'GET /v1/domain-purchases/{id}/dns',
      'PUT /v1/domain-purchases/{id}/dns',
      'PUT /v1/domain-purchases/{id}/nameservers',
      'POST /v1/domain-purchases/{id}/renew',
      'POST /v1/domains/bulk',
      'GET /v1/projects',
      'GET /.well-known/oauth-authorization-server',
      'GET /v1/tools/dns-lookup',
    ]) {
      const [method, path] = key.split(' ');
      expect({ key, op: doc.paths[path]?.[method.toLowerCase()] }).toEqual({ key, op: expect.any(Object) });
    }
  });

  it('resolves every $ref and is OpenAPI 3.0', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.0.0');
    const missing = refsOf(doc).filter((ref) => {
      const [, section, kind, name] = ref.split('/');
      return section !== 'components' || !doc.components[kind]?.[name];
    });
    expect(missing).toEqual([]);
  });

  it('takes request bodies and query parameters from the validation DTOs', () => {
    const create = doc.paths['/v1/domains'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateDomainDto',
    });
    const body = doc.components.schemas.CreateDomainDto;
    expect(body.required).toEqual(expect.arrayContaining(['hostname', 'originUrl']));
    expect(body.properties.hostname).toMatchObject({ type: 'string', maxLength: 253 });
    expect(body.properties.mode.enum).toEqual(['proxy', 'redirect']);
    const list = doc.paths['/v1/domains'].get;
    expect(list.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['hostname', 'status', 'cursor', 'limit']),
    );
    expect(list.parameters.find((p: Json) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it('lists errors, rate-limit and idempotency headers, and security per operation', () => {
    const create = doc.paths['/v1/domains'].post;
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '402', '409', '413', '422', '429', '500']),
    );
    expect(create.responses['409'].description).toContain('`conflict`');
    expect(create.responses['409'].description).toContain('`idempotency_in_progress`');
    expect(create.responses['429'].headers).toEqual(
      expect.objectContaining({ 'Retry-After': expect.any(Object), 'x-ratelimit-remaining': expect.any(Object) }),
    );
    expect(create.responses['201'].headers['idempotent-replay']).toBeDefined();
    expect(create.responses['201'].headers['x-service-request-id']).toBeDefined();
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(create.security).toEqual([{ bearer: [] }, { oauth2: ['domains:write'] }]);
    expect(doc.paths['/v1/domains/{id}'].get.security).toEqual([{ bearer: [] }, { oauth2: ['domains:read'] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/admin/workspaces'].post.security).toEqual([{ adminToken: [] }]);
    expect(doc.paths['/v1/domains/{id}'].get.responses['404']).toBeDefined();
    expect(doc.components.schemas.Error.properties.error.enum).toEqual(
      expect.arrayContaining(['rate_limited', 'preflight_failed', 'registration_failed']),
    );
  });

  it('serves the reference page and only its own assets', async () => {
    const page = await request(t.server).get('/docs').expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('/openapi.json');
    const bundle = await request(t.server).get('/docs/swagger-ui-bundle.js').expect(200);
    expect(bundle.headers['content-type']).toContain('javascript');
    await request(t.server).get('/docs/package.json').expect(404);
    await request(t.server).get('/docs/..%2Fpackage.json').expect(404);
  });
});

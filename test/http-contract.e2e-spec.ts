import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import { connect } from 'node:net';
import request from 'supertest';

type Json = Record<string, any>;
interface Operation {
  method: string;
  /** `/v1/domains/{id}` */
  template: string;
  doc: Json;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ENVELOPE = { error: expect.any(String), message: expect.any(String) };

/**
 * What the router and the HTTP layer answer before (or instead of) a route: every answer is the
 * `{error, message, details}` envelope with a status the OpenAPI document gives the operation.
 */
describe('the HTTP contract: every answer as documented', () => {
  let dns: DnsServer;
  let t: TestApp;
  let apiKey: string;
  let workspaceId: string;
  let operations: Operation[];

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    await t.app.listen(0, '127.0.0.1');
    ({ apiKey, workspaceId } = await createWorkspaceVia(t.server));
    const document = (await request(t.server).get('/openapi.json').expect(200)).body as Json;
    operations = Object.entries(document.paths as Json).flatMap(([template, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, doc]) => ({ method: method.toUpperCase(), template, doc: doc as Json })),
    );
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const credentialOf = (template: string) =>
    template.startsWith('/admin/') ? TEST_ADMIN_TOKEN : template.startsWith('/v1/') ? apiKey : undefined;
  const call = (method: string, path: string, template = path) => {
    const req = request(t.server)[method.toLowerCase() as 'get'](path);
    const credential = credentialOf(template);
    return credential ? req.set('authorization', `Bearer ${credential}`) : req;
  };
  const documented = (op: Operation, status: number) => String(status) in (op.doc.responses as Json);
  const withParams = (op: Operation, value: string) => op.template.replace(/\{[^}]+\}/g, value);

  /** One exchange over a raw socket: what Node's HTTP client would refuse to send. */
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const address = t.server.address() as { port: number };
      const socket = connect(address.port, '127.0.0.1', () => socket.end(text));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });

  describe('URL errors the router raises', () => {
    it('a path segment over 100 characters: 404 not_found in the envelope, on every operation with a path id', async () => {
      const withIds = operations.filter((op) => op.template.includes('{'));
      expect(withIds.length).toBeGreaterThan(30);
      for (const op of withIds) {
        const res = await call(op.method, withParams(op, 'x'.repeat(101)), op.template);
        const what = `${op.method} ${op.template}`;
        expect([what, res.status]).toEqual([what, 404]);
        expect(res.body).toEqual({
          error: 'not_found',
          message: 'Not found: a segment of the path is longer than 100 characters, and no id is that long',
        });
        expect(res.headers['x-service-request-id']).toMatch(/^req_/);
        expect([what, documented(op, 404)]).toEqual([what, true]);
      }
    });

    it('a path that is not valid percent-encoding: 400 bad_request in the envelope, documented', async () => {
      const withIds = operations.filter((op) => op.template.includes('{'));
      for (const op of withIds) {
        for (const bad of ['%zz', '%E0%A4%A', '%ED%A0%80', '%']) {
          const res = await call(op.method, withParams(op, `a${bad}`), op.template);
          const what = `${op.method} ${op.template} ${bad}`;
          expect([what, res.status]).toEqual([what, 400]);
          expect(res.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/percent|%XX/) });
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect([what, documented(op, 400)]).toEqual([what, true]);
        }
      }
      // A path no operation has, too.
      const unknown = await request(t.server).get('/v1/nothing%zz').expect(400);
      expect(unknown.body).toEqual({ error: 'bad_request', message: expect.any(String) });
    });

    it('a request HTTP does not allow (NUL or CR in a header): 400 bad_request in the envelope', async () => {
      for (const header of ['x-note: a\u0000b', 'authorization: Bearer sk_live_\u0000', 'x-a\rb: c']) {
        const answer = await raw(`GET /healthz HTTP/1.1\r\nhost: x\r\n${header}\r\n\r\n`);
        const [head, body] = answer.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 400 /);
        expect(head.toLowerCase()).toContain('content-type: application/json');
        expect(head.toLowerCase()).toMatch(/x-service-request-id: req_/);
        expect(JSON.parse(body)).toEqual({ error: 'bad_request', message: expect.stringMatching(/not valid HTTP/) });
      }
    });
  });

  describe('bodies', () => {
    const junk: [string, string][] = [
      ['application/json', '{"unfinished":'],
      ['application/json', '\ufeff{}'],
      ['text/plain', 'junk'],
      ['application/x-www-form-urlencoded', 'a=b&a=c'],
      ['application/octet-stream', '\u0000\u0001'],
    ];

    it('a body sent to an operation that takes none is ignored: the answer is the one without it', async () => {
      const bodyless = operations.filter((op) => op.method !== 'GET' && !op.doc.requestBody);
      expect(bodyless.map((op) => `${op.method} ${op.template}`)).toEqual(
        expect.arrayContaining([
          'POST /v1/domains/{id}/check',
          'POST /v1/webhook-endpoints/{id}/test',
          'DELETE /v1/domains/{id}',
          'DELETE /v1/projects/{id}',
          'DELETE /admin/api-keys/{keyId}',
        ]),
      );
      for (const op of bodyless) {
        const path = withParams(op, 'x_0000000000000000000000');
        const without = await call(op.method, path, op.template);
        for (const [type, body] of junk) {
          const res = await call(op.method, path, op.template).set('content-type', type).send(body);
          const what = `${op.method} ${op.template} with ${type} ${JSON.stringify(body)}`;
          expect([what, res.status]).toEqual([what, without.status]);
        }
      }
    });

    it('the junk body does not stop what the operation does (test event, delete)', async () => {
      const endpoint = (
        await call('POST', '/v1/webhook-endpoints').send({ url: 'https://hooks.example.com/in' }).expect(201)
      ).body.endpoint as { id: string };
      const send = (method: string, path: string) =>
        call(method, path).set('content-type', 'application/json').send('{"unfinished":');
      await send('POST', `/v1/webhook-endpoints/${endpoint.id}/test`).expect(202);
      // Creating a key takes an optional body ({name}): none is fine, a broken one is refused in the envelope.
      await call('POST', `/admin/workspaces/${workspaceId}/api-keys`).expect(201);
      const broken = await send('POST', `/admin/workspaces/${workspaceId}/api-keys`).expect(400);
      expect(broken.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      // 2 MB to an operation that reads no body: not 413 (it is never read).
      await call('POST', `/v1/webhook-endpoints/${endpoint.id}/test`)
        .set('content-type', 'application/json')
        .send(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`)
        .expect(202);
      await send('DELETE', `/v1/webhook-endpoints/${endpoint.id}`).expect(200);
    });

    it('answers a body over 1 MiB to the OAuth endpoints with a documented 413 in the envelope', async () => {
      for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
        const res = await request(t.server)
          .post(path)
          .set('content-type', 'application/x-www-form-urlencoded')
          .send(`grant_type=client_credentials&x=${'a'.repeat(2 * 1024 * 1024)}`);
        expect([path, res.status]).toEqual([path, 413]);
        expect(res.body).toMatchObject({ error: 'payload_too_large', message: expect.any(String) });
      }
    });

    it('POST /admin/console-users with an unknown workspace: 404 (documented), and no user stored', async () => {
      const res = await call('POST', '/admin/console-users')
        .send({ email: 'nobody@example.com', password: 'a-long-enough-password', workspaceId: 'ws_missing' })
        .expect(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'Workspace was not found' });
      expect(await t.db.query(`select id from console_users where email = 'nobody@example.com'`)).toEqual([]);
      // An address that already has a user: 409 conflict, documented too.
      const user = { email: 'twice@example.com', password: 'a-long-enough-password', operator: true };
      await call('POST', '/admin/console-users').send(user).expect(201);
      expect((await call('POST', '/admin/console-users').send(user).expect(409)).body.error).toBe('conflict');
    });
  });

  describe('methods', () => {
    it('PUT on a resource that has none: 405 method_not_allowed, with Allow', async () => {
      const res = await call('PUT', '/v1/domains/dom_0000000000000000000000').expect(405);
      expect(res.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
      expect(res.body).toEqual({
        error: 'method_not_allowed',
        message: 'PUT is not allowed here: this path answers DELETE, GET, HEAD, PATCH',
        details: { allow: ['DELETE', 'GET', 'HEAD', 'PATCH'] },
      });
      expect(res.headers['x-service-request-id']).toMatch(/^req_/);
      // Even with a body, and without credentials: the method is wrong whoever asks.
      await request(t.server).put('/v1/domains/x').set('content-type', 'application/json').send('{').expect(405);
    });

    it('every path of the document answers a method it does not have with 405 and the methods it has', async () => {
      const templates = [...new Set(operations.map((op) => op.template))];
      const pattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const template of templates) {
        const path = template.replace(/\{[^}]+\}/g, 'x_1');
        // Every operation whose template matches this path (`/v1/domains/bulk` is also `/v1/domains/{id}`).
        const methods = new Set(operations.filter((op) => pattern(op.template).test(path)).map((op) => op.method));
        if (methods.has('GET')) methods.add('HEAD');
        const missing = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((m) => !methods.has(m));
        if (!missing) continue;
        const res = await call(missing, path, template);
        const allow = [...methods].sort();
        expect([`${missing} ${template}`, res.status, res.headers.allow]).toEqual([
          `${missing} ${template}`,
          405,
          allow.join(', '),
        ]);
        expect(res.body).toEqual({ ...ENVELOPE, error: 'method_not_allowed', details: { allow } });
      }
    });

    it('a path that does not exist stays 404 not_found', async () => {
      const res = await request(t.server).put('/v1/nothing-here').expect(404);
      expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
    });
  });

  describe('messages that say the fix', () => {
    const connect = (body: Json) => call('POST', '/v1/domains').send(body).expect(400);

    it('a hostname sent as a URL: leave out the scheme, the path or the port', async () => {
      const cases: [string, string][] = [
        ['https://shop.example.com', 'includes the scheme "https://": leave it out, e.g. "shop.example.com"'],
        [
          'shop.example.com/',
          'includes a path: send the name alone, without "/" and what follows, e.g. "shop.example.com"',
        ],
        ['shop.example.com:443', 'includes a port: leave out ":443", e.g. "shop.example.com"'],
      ];
      for (const [hostname, fix] of cases) {
        const res = await connect({ hostname, originUrl: ORIGIN_URL });
        expect(res.body.message).toBe(`hostname: Hostname ${JSON.stringify(hostname)} ${fix}`);
      }
    });

    it('an origin URL without a scheme: suggests the URL with https://', async () => {
      const res = await connect({ hostname: 'shop.customer-a.com', originUrl: 'origin.saas-test.net/app' });
      expect(res.body.message).toBe(
        'originUrl must be an absolute http or https URL: add the scheme, e.g. https://origin.saas-test.net/app',
      );
    });
  });
});

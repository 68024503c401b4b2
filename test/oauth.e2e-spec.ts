import { ALL_SCOPES } from '@app/auth';
import { CLOCK, Clock } from '@app/kernel';
import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  startDnsServer,
  startProcess,
  startTestApp,
} from '@test/support';
import request from 'supertest';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

interface Client {
  clientId: string;
  secret: string;
  workspaceId: string;
  apiKey: string;
}

describe('OAuth 2.0 client credentials', () => {
  let dns: DnsServer;
  let t: TestApp;
  let now = Date.now();
  let client: Client;

  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  async function newClient(scopes: string[], workspaceId?: string): Promise<Client> {
    let apiKey = '';
    if (!workspaceId) {
      const ws = await request(t.server)
        .post('/admin/workspaces')
        .set(admin)
        .send({ name: 'oauth', paymentMethod: 'pm_card_visa' })
        .expect(201);
      workspaceId = ws.body.workspace.id as string;
      apiKey = ws.body.apiKey as string;
    }
    const res = await request(t.server)
      .post(`/admin/workspaces/${workspaceId}/oauth-clients`)
      .set(admin)
      .send({ name: 'backend', scopes })
      .expect(201);
    return { clientId: res.body.client_id, secret: res.body.client_secret, workspaceId, apiKey };
  }

  const tokenRequest = (c: Client, form: Record<string, string>) =>
    request(t.server)
      .post('/oauth/token')
      .set('authorization', basic(c.clientId, c.secret))
      .type('form')
      .send({ grant_type: 'client_credentials', ...form });

  async function token(c: Client, scope?: string): Promise<string> {
    const res = await tokenRequest(c, scope ? { scope } : {}).expect(200);
    return res.body.access_token as string;
  }

  const bearer = (tok: string) => ({ authorization: `Bearer ${tok}` });

  /** An OAuth error carries RFC 6749's fields and the service envelope, and is never cached. */
  function expectOAuthError(res: request.Response, status: number, error: string) {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error, message: expect.any(String), error_description: res.body.message });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-service-request-id']).toBeDefined();
  }

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({
      env: domainEnv(dns.address),
      overrides: [{ provide: CLOCK, useValue: { now: () => now } }],
    });
    client = await newClient(['domains:read', 'domains:write', 'webhooks:read']);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('publishes RFC 8414 metadata at the well-known address', async () => {
    const res = await request(t.server).get('/.well-known/oauth-authorization-server').expect(200);
    const issuer = res.body.issuer as string;
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(res.body).toEqual({
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      grant_types_supported: ['client_credentials'],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: [...ALL_SCOPES],
    });
  });

  describe('client registration (admin API)', () => {
    it('shows the secret once, stores only its hash, and lists clients without secrets', async () => {
      const ws = client.workspaceId;
      const created = await request(t.server)
        .post(`/admin/workspaces/${ws}/oauth-clients`)
        .set(admin)
        .send({ name: 'reporting', scopes: ['domains:read'] })
        .expect(201);
      expect(created.body.client_id).toMatch(/^oac_[0-9A-Za-z]+$/);
      expect(created.body.client_secret).toMatch(/^ocs_[0-9A-Za-z]{43}$/);
      expect(created.body.client).toMatchObject({
        clientId: created.body.client_id,
        workspaceId: ws,
        name: 'reporting',
        scopes: ['domains:read'],
        revokedAt: null,
      });
      const rows = await t.db.query<{ secret_hash: string }>('select secret_hash from oauth_clients where id = $1', [
        created.body.client_id,
      ]);
      expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(created.body.client_secret);
      const list = await request(t.server).get(`/admin/workspaces/${ws}/oauth-clients`).set(admin).expect(200);
      expect(list.body.clients.map((c: { clientId: string }) => c.clientId)).toContain(created.body.client_id);
      expect(JSON.stringify(list.body)).not.toContain(created.body.client_secret);
    });

    it('refuses unknown scopes, missing fields, unknown workspaces and non-admin callers', async () => {
      const path = `/admin/workspaces/${client.workspaceId}/oauth-clients`;
      const bad = await request(t.server)
        .post(path)
        .set(admin)
        .send({ name: 'x', scopes: ['root'] })
        .expect(400);
      expect(bad.body.error).toBe('bad_request');
      await request(t.server).post(path).set(admin).send({ name: 'x', scopes: [] }).expect(400);
      await request(t.server)
        .post(path)
        .set(admin)
        .send({ scopes: ['domains:read'] })
        .expect(400);
      await request(t.server)
        .post('/admin/workspaces/ws_missing/oauth-clients')
        .set(admin)
        .send({ name: 'x', scopes: ['domains:read'] })
        .expect(404);
      await request(t.server)
        .post(path)
        .set(bearer(client.apiKey))
        .send({ name: 'x', scopes: ['domains:read'] })
        .expect(401);
      const tok = await token(client);
      await request(t.server).get(path).set(bearer(tok)).expect(401);
    });

    it('registers a client from the terminal: npm run admin -- create-oauth-client', async () => {
      await t.app.listen(0, '127.0.0.1');
      const run = startProcess(
        'dist/apps/cli/src/main.js',
        { API_URL: await t.app.getUrl(), ADMIN_TOKEN: TEST_ADMIN_TOKEN },
        [
          'create-oauth-client',
          '--workspace',
          client.workspaceId,
          '--name',
          'cli',
          '--scopes',
          'domains:read,projects:read',
        ],
      );
      expect(await run.exited).toBe(0);
      const out = JSON.parse(run.output()) as {
        client_id: string;
        client_secret: string;
        client: { scopes: string[] };
      };
      expect(out.client.scopes).toEqual(['domains:read', 'projects:read']);
      const res = await tokenRequest({ ...client, clientId: out.client_id, secret: out.client_secret }, {}).expect(200);
      expect(res.body.scope).toBe('domains:read projects:read');
    });
  });

  describe('token endpoint', () => {
    it('issues a token to a client authenticated with HTTP Basic (form body), not cacheable', async () => {
      const res = await tokenRequest(client, {}).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^oat_[0-9A-Za-z]{43}$/),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'domains:read domains:write webhooks:read',
      });
      const stored = await t.db.query<{ token_hash: string }>('select token_hash from oauth_tokens');
      expect(JSON.stringify(stored)).not.toContain(res.body.access_token);
    });

    it('accepts client_secret_post, in a form body or in JSON', async () => {
      const form = await request(t.server)
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.secret })
        .expect(200);
      expect(form.body.token_type).toBe('Bearer');
      const charset = await request(t.server)
        .post('/oauth/token')
        .set('content-type', 'application/x-www-form-urlencoded; charset=UTF-8')
        .send(`grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.secret}`)
        .expect(200);
      expect(charset.body.scope).toBe('domains:read domains:write webhooks:read');
      const json = await request(t.server)
        .post('/oauth/token')
        .send({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.secret,
          scope: 'domains:read',
          ignored_extension: 'x',
        })
        .expect(200);
      expect(json.body.scope).toBe('domains:read');
    });

    it('answers 401 invalid_client with WWW-Authenticate for a wrong secret, unknown client or none', async () => {
      const wrong = await tokenRequest({ ...client, secret: `${client.secret}x` }, {});
      expectOAuthError(wrong, 401, 'invalid_client');
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
      const unknown = await tokenRequest({ ...client, clientId: 'oac_doesnotexist' }, {});
      expectOAuthError(unknown, 401, 'invalid_client');
      expect(unknown.body.message).toBe(wrong.body.message);
      const none = await request(t.server).post('/oauth/token').type('form').send({ grant_type: 'client_credentials' });
      expectOAuthError(none, 401, 'invalid_client');
      expect(none.headers['www-authenticate']).toMatch(/^Basic /);
      const garbled = await request(t.server)
        .post('/oauth/token')
        .set('authorization', `Basic ${Buffer.from('no-colon').toString('base64')}`)
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expectOAuthError(garbled, 401, 'invalid_client');
    });

    it('refuses other grant types, a missing grant type, repeated parameters and two auth methods', async () => {
      expectOAuthError(await tokenRequest(client, { grant_type: 'authorization_code' }), 400, 'unsupported_grant_type');
      const missing = await request(t.server)
        .post('/oauth/token')
        .set('authorization', basic(client.clientId, client.secret))
        .type('form')
        .send('scope=domains:read');
      expectOAuthError(missing, 400, 'invalid_request');
      const repeated = await request(t.server)
        .post('/oauth/token')
        .set('authorization', basic(client.clientId, client.secret))
        .type('form')
        .send('grant_type=client_credentials&scope=domains:read&scope=domains:write');
      expectOAuthError(repeated, 400, 'invalid_request');
      expect(repeated.body.details).toEqual({ parameter: 'scope' });
      const both = await tokenRequest(client, { client_secret: client.secret });
      expectOAuthError(both, 400, 'invalid_request');
    });

    it('grants a subset of the client scopes and refuses others with invalid_scope', async () => {
      const narrow = await tokenRequest(client, { scope: 'domains:read domains:read' }).expect(200);
      expect(narrow.body.scope).toBe('domains:read');
      const outside = await tokenRequest(client, { scope: 'domains:read purchases:write' });
      expectOAuthError(outside, 400, 'invalid_scope');
      expect(outside.body.details.refused).toEqual(['purchases:write']);
      const unknown = await tokenRequest(client, { scope: 'everything' });
      expectOAuthError(unknown, 400, 'invalid_scope');
      expect(unknown.body.details.unknown).toEqual(['everything']);
    });
  });

  describe('access tokens on the API', () => {
    it('work on /v1/domains like an API key, within their workspace', async () => {
      const tok = await token(client);
      const created = await request(t.server)
        .post('/v1/domains')
        .set(bearer(tok))
        .send({ hostname: 'oauth.customer-a.com', originUrl: ORIGIN_URL })
        .expect(201);
      const id = created.body.domain.id as string;
      const viaKey = await request(t.server).get(`/v1/domains/${id}`).set(bearer(client.apiKey)).expect(200);
      expect(viaKey.body.domain.hostname).toBe('oauth.customer-a.com');
      const list = await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200);
      expect(list.body.domains.map((d: { id: string }) => d.id)).toContain(id);
      const me = await request(t.server).get('/v1/workspace').set(bearer(tok)).expect(200);
      expect(me.body.workspace.id).toBe(client.workspaceId);
      const other = await newClient(['domains:read']);
      await request(t.server)
        .get(`/v1/domains/${id}`)
        .set(bearer(await token(other)))
        .expect(404);
    });

    it('answer 403 outside their scopes; GET /v1/workspace needs none', async () => {
      const tok = await token(client, 'domains:read');
      const write = await request(t.server)
        .post('/v1/domains')
        .set(bearer(tok))
        .send({ hostname: 'denied.customer-a.com', originUrl: ORIGIN_URL })
        .expect(403);
      expect(write.body).toEqual({
        error: 'forbidden',
        message: 'This token lacks the domains:write scope',
        details: { requiredScope: 'domains:write' },
      });
      const hooks = await request(t.server).get('/v1/webhook-endpoints').set(bearer(tok)).expect(403);
      expect(hooks.body.details).toEqual({ requiredScope: 'webhooks:read' });
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200);
      await request(t.server).get('/v1/workspace').set(bearer(tok)).expect(200);
      // webhooks:read (granted to the client) lets another token read but not write endpoints.
      const hookReader = await token(client, 'webhooks:read');
      await request(t.server).get('/v1/webhook-endpoints').set(bearer(hookReader)).expect(200);
      await request(t.server)
        .post('/v1/webhook-endpoints')
        .set(bearer(hookReader))
        .send({ url: 'https://hooks.saas-test.net/x', events: [] })
        .expect(403);
    });

    it('expire after OAUTH_TOKEN_TTL_SECONDS', async () => {
      const tok = await token(client);
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200);
      now += 3_599_000;
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200);
      now += 1_000;
      const expired = await request(t.server).get('/v1/domains').set(bearer(tok)).expect(401);
      expect(expired.body.error).toBe('unauthorized');
      const seen = await request(t.server)
        .post('/oauth/introspect')
        .set('authorization', basic(client.clientId, client.secret))
        .type('form')
        .send({ token: tok })
        .expect(200);
      expect(seen.body).toEqual({ active: false });
    });
  });

  describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
    const introspect = (c: Client, tok: string) =>
      request(t.server)
        .post('/oauth/introspect')
        .set('authorization', basic(c.clientId, c.secret))
        .type('form')
        .send({ token: tok, token_type_hint: 'access_token' });

    it('introspects a live token, and answers inactive for garbage and for other workspaces', async () => {
      const issuedAt = Math.floor(now / 1000);
      const tok = await token(client, 'domains:read webhooks:read');
      const res = await introspect(client, tok).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        active: true,
        scope: 'domains:read webhooks:read',
        client_id: client.clientId,
        token_type: 'Bearer',
        iat: issuedAt,
        exp: issuedAt + 3600,
        sub: client.clientId,
        workspace: client.workspaceId,
      });
      expect((await introspect(client, 'oat_nope').expect(200)).body).toEqual({ active: false });
      expect((await introspect(client, client.apiKey).expect(200)).body).toEqual({ active: false });
      const foreign = await newClient(['domains:read']);
      expect((await introspect(foreign, tok).expect(200)).body).toEqual({ active: false });
      const sibling = await newClient(['domains:read'], client.workspaceId);
      expect((await introspect(sibling, tok).expect(200)).body.active).toBe(true);
      expectOAuthError(
        await request(t.server).post('/oauth/introspect').type('form').send({ token: tok }),
        401,
        'invalid_client',
      );
      expectOAuthError(
        await request(t.server)
          .post('/oauth/introspect')
          .set('authorization', basic(client.clientId, client.secret))
          .type('form')
          .send({}),
        400,
        'invalid_request',
      );
    });

    it('revokes a token at once, and answers 200 for unknown tokens', async () => {
      const tok = await token(client);
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200); // now cached
      const revoke = (c: Client, value: string) =>
        request(t.server)
          .post('/oauth/revoke')
          .set('authorization', basic(c.clientId, c.secret))
          .type('form')
          .send({ token: value });
      // Another client cannot revoke it (and learns nothing).
      const stranger = await newClient(['domains:read'], client.workspaceId);
      await revoke(stranger, tok).expect(200);
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200);
      await revoke(client, tok).expect(200);
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(401);
      expect((await introspect(client, tok)).body).toEqual({ active: false });
      await revoke(client, tok).expect(200);
      await revoke(client, 'oat_unknown').expect(200);
      expectOAuthError(
        await request(t.server).post('/oauth/revoke').type('form').send({ token: tok }),
        401,
        'invalid_client',
      );
    });

    it('revoking a client ends its tokens and its access to the token endpoint', async () => {
      const doomed = await newClient(['domains:read'], client.workspaceId);
      const tok = await token(doomed);
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(200);
      const revoked = await request(t.server)
        .delete(`/admin/workspaces/${client.workspaceId}/oauth-clients/${doomed.clientId}`)
        .set(admin)
        .expect(200);
      expect(revoked.body.client.revokedAt).toEqual(expect.any(String));
      await request(t.server).get('/v1/domains').set(bearer(tok)).expect(401);
      expectOAuthError(await tokenRequest(doomed, {}), 401, 'invalid_client');
      expect((await introspect(client, tok)).body).toEqual({ active: false });
      await request(t.server)
        .delete(`/admin/workspaces/ws_other/oauth-clients/${doomed.clientId}`)
        .set(admin)
        .expect(404);
    });
  });
});

describe('OAuth tokens and rate limits', () => {
  let t: TestApp;
  let now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMITS: 'on' } });
    jest.spyOn(t.app.get<Clock>(CLOCK), 'now').mockImplementation(() => now);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts every token of a client against one budget: more tokens buy no more requests', async () => {
    const ws = await request(t.server).post('/admin/workspaces').set(admin).send({ name: 'limited' }).expect(201);
    const registered = await request(t.server)
      .post(`/admin/workspaces/${ws.body.workspace.id}/oauth-clients`)
      .set(admin)
      .send({ name: 'greedy', scopes: ['domains:read'] })
      .expect(201);
    const issue = async () =>
      (
        await request(t.server)
          .post('/oauth/token')
          .type('form')
          .send({
            grant_type: 'client_credentials',
            client_id: registered.body.client_id,
            client_secret: registered.body.client_secret,
          })
          .expect(200)
      ).body.access_token as string;
    const [first, second] = [await issue(), await issue()];
    for (let i = 0; i < 30; i++) {
      await request(t.server).get('/v1/domains').set('authorization', `Bearer ${first}`).expect(200);
      await request(t.server).get('/v1/domains').set('authorization', `Bearer ${second}`).expect(200);
    }
    const limited = await request(t.server)
      .get('/v1/domains')
      .set('authorization', `Bearer ${await issue()}`)
      .expect(429);
    expect(limited.body.details).toMatchObject({ action: 'api' });
    now += 60_000;
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${first}`).expect(200);
  });
});

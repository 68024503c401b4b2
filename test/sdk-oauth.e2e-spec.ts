import { CLOCK } from '@app/kernel';
import { ApiError, createCustomDomainsClient, unwrap } from '@app/sdk';
import { TEST_ADMIN_TOKEN, TestApp, startTestApp } from '@test/support';
import type { AddressInfo } from 'node:net';

/**
 * The SDK's OAuth client credentials against a real app on a real port: a token is fetched once,
 * fetched again when it expires (the SDK's clock), and after a 401 (a revoked token, or one the
 * server already holds expired), and the call that met the 401 succeeds with the new token.
 */
describe('SDK OAuth token refresh', () => {
  const TTL_MS = 3600 * 1000; // OAUTH_TOKEN_TTL_SECONDS' default
  let serverNow = Date.now();
  let t: TestApp;
  let baseUrl: string;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

  beforeAll(async () => {
    t = await startTestApp({ overrides: [{ provide: CLOCK, useValue: { now: () => serverNow } }] });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  async function oauthClient(): Promise<{ workspaceId: string; clientId: string; clientSecret: string }> {
    const ws = await fetch(`${baseUrl}/admin/workspaces`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'sdk-oauth' }),
    });
    const workspaceId = ((await ws.json()) as { workspace: { id: string } }).workspace.id;
    const created = await fetch(`${baseUrl}/admin/workspaces/${workspaceId}/oauth-clients`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'sdk', scopes: ['domains:read'] }),
    });
    const body = (await created.json()) as { client_id: string; client_secret: string };
    return { workspaceId, clientId: body.client_id, clientSecret: body.client_secret };
  }

  interface Sent {
    path: string;
    status: number;
    token?: string;
  }

  /** An SDK on `client` whose every request (token requests included) is recorded. */
  function recordedSdk(client: { clientId: string; clientSecret: string }, now?: () => number) {
    const sent: Sent[] = [];
    const issued: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      const path = new URL(request.url).pathname;
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      sent.push({ path, status: response.status, ...(path === '/oauth/token' ? {} : { token }) });
      if (path === '/oauth/token' && response.ok) {
        issued.push(((await response.clone().json()) as { access_token: string }).access_token);
      }
      return response;
    };
    const sdk = createCustomDomainsClient({
      baseUrl,
      credentials: { ...client, scope: 'domains:read' },
      fetch: recording,
      now,
    });
    const listDomains = async () => (await unwrap(sdk.api.GET('/v1/domains'))).domains;
    return { sent, issued, listDomains };
  }

  const statusWith = async (token: string) =>
    (await fetch(`${baseUrl}/v1/domains`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('fetches a new token when its lifetime is over, before the server would refuse it', async () => {
    const client = await oauthClient();
    let sdkNow = serverNow;
    const { sent, issued, listDomains } = recordedSdk(client, () => sdkNow);
    expect(await listDomains()).toEqual([]);
    expect(await listDomains()).toEqual([]);
    expect(issued).toHaveLength(1);

    // An hour later on both clocks: the first token is dead at the server too.
    serverNow += TTL_MS + 1_000;
    sdkNow += TTL_MS + 1_000;
    expect(await statusWith(issued[0])).toBe(401);
    sent.length = 0;
    expect(await listDomains()).toEqual([]);
    expect(issued).toHaveLength(2);
    expect(issued[1]).not.toBe(issued[0]);
    // The new token was fetched first: the API never saw the dead one.
    expect(sent).toEqual([
      { path: '/oauth/token', status: 200 },
      { path: '/v1/domains', status: 200, token: issued[1] },
    ]);
  });

  it('fetches a new token once early, within 30 s of expiry, not on every call', async () => {
    const client = await oauthClient();
    let sdkNow = serverNow;
    const { issued, listDomains } = recordedSdk(client, () => sdkNow);
    await listDomains();
    sdkNow += TTL_MS - 31_000; // still 31 s to go: reused
    await listDomains();
    expect(issued).toHaveLength(1);
    sdkNow += 2_000; // 29 s to go: renewed, and the new one reused
    await listDomains();
    await listDomains();
    expect(issued).toHaveLength(2);
  });

  it('after a 401 for a revoked token: fetches another and the call succeeds', async () => {
    const client = await oauthClient();
    const { sent, issued, listDomains } = recordedSdk(client);
    await listDomains();
    const revoked = await fetch(`${baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: issued[0], client_id: client.clientId, client_secret: client.clientSecret }),
    });
    expect(revoked.status).toBe(200);
    sent.length = 0;
    expect(await listDomains()).toEqual([]);
    expect(sent).toEqual([
      { path: '/v1/domains', status: 401, token: issued[0] },
      { path: '/oauth/token', status: 200 },
      { path: '/v1/domains', status: 200, token: issued[1] },
    ]);
  });

  it('after a 401 for a token the server holds expired (its clock ahead of ours): refreshes and succeeds', async () => {
    const client = await oauthClient();
    const sdkNow = serverNow;
    const { sent, issued, listDomains } = recordedSdk(client, () => sdkNow);
    await listDomains();
    serverNow += TTL_MS + 1_000; // only the server's clock moves
    sent.length = 0;
    expect(await listDomains()).toEqual([]);
    expect(sent).toEqual([
      { path: '/v1/domains', status: 401, token: issued[0] },
      { path: '/oauth/token', status: 200 },
      { path: '/v1/domains', status: 200, token: issued[1] },
    ]);
  });

  it('a client revoked by the operator: the refresh is refused and the call fails with a typed invalid_client', async () => {
    const client = await oauthClient();
    const { sent, listDomains } = recordedSdk(client);
    await listDomains();
    const deleted = await fetch(`${baseUrl}/admin/workspaces/${client.workspaceId}/oauth-clients/${client.clientId}`, {
      method: 'DELETE',
      headers: { authorization: admin.authorization },
    });
    expect(deleted.status).toBe(200);
    sent.length = 0;
    const error = (await listDomains().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client' });
    // One refresh only: no loop of token requests.
    expect(sent.map((s) => `${s.path} ${s.status}`)).toEqual(['/v1/domains 401', '/oauth/token 401']);
  });

  it('wrong client credentials: the first call fails with a typed invalid_client', async () => {
    const client = await oauthClient();
    const { listDomains } = recordedSdk({ ...client, clientSecret: `${client.clientSecret}x` });
    await expect(listDomains()).rejects.toMatchObject({ name: 'ApiError', status: 401, code: 'invalid_client' });
  });
});

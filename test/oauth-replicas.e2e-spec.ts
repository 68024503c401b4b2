import {
  TEST_ADMIN_TOKEN,
  TestDatabase,
  createTestDatabase,
  eventually,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
  clusterProcessEnv,
} from '@test/support';

async function call(url: string, method: string, token: string, body?: Record<string, unknown>, form = false) {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: token,
      ...(body ? { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
    },
    body: body
      ? form
        ? new URLSearchParams(body as Record<string, string>).toString()
        : JSON.stringify(body)
      : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Revocations must reach the other API replicas' caches over NATS, not wait for the cache to expire. */
describe('OAuth across API replicas', () => {
  const prefix = uniqueSubjectPrefix();
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await stopAllProcesses();
    await db?.drop();
  });

  const env = () => ({
    ...clusterProcessEnv(db.url, prefix),
    // The polling below must not run into the per-client budget.
    RATE_LIMITS: 'off',
  });

  /** Polls replica B until the token stops working; the cache alone would keep it for 5 s. */
  const statusSoon = (url: string, token: string) =>
    eventually(
      async () => (await call(url, 'GET', `Bearer ${token}`)).status,
      (status) => status !== 200,
      { timeoutMs: 1_000, everyMs: 10, what: `the revoked token to stop working at ${url}` },
    );

  it('revokes a token, and a client, on every replica at once', async () => {
    const a = startProcess('dist/apps/api/src/main.js', env());
    const b = startProcess('dist/apps/api/src/main.js', env());
    const [urlA, urlB] = await Promise.all([waitForUrl(a), waitForUrl(b)]);
    const admin = `Bearer ${TEST_ADMIN_TOKEN}`;
    const ws = await call(`${urlA}/admin/workspaces`, 'POST', admin, { name: 'Replicated' });
    const wsId = ws.body.workspace.id as string;
    const registered = await call(`${urlA}/admin/workspaces/${wsId}/oauth-clients`, 'POST', admin, {
      name: 'backend',
      scopes: ['domains:read'],
    });
    expect(registered.status).toBe(201);
    const client = registered.body as { client_id: string; client_secret: string };
    const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
    const issue = async () => {
      const res = await call(`${urlA}/oauth/token`, 'POST', basic, { grant_type: 'client_credentials' }, true);
      expect(res.status).toBe(200);
      return res.body.access_token as string;
    };

    const first = await issue();
    expect((await call(`${urlB}/v1/domains`, 'GET', `Bearer ${first}`)).status).toBe(200); // B caches it
    expect((await call(`${urlA}/oauth/revoke`, 'POST', basic, { token: first }, true)).status).toBe(200);
    expect(await statusSoon(`${urlB}/v1/domains`, first)).toBe(401);

    const second = await issue();
    expect((await call(`${urlB}/v1/domains`, 'GET', `Bearer ${second}`)).status).toBe(200);
    const revoked = await call(`${urlA}/admin/workspaces/${wsId}/oauth-clients/${client.client_id}`, 'DELETE', admin);
    expect(revoked.status).toBe(200);
    expect(await statusSoon(`${urlB}/v1/domains`, second)).toBe(401);
    await Promise.all([a.stop(), b.stop()]);
  });
});

import {
  TEST_ADMIN_TOKEN,
  TestDatabase,
  createTestDatabase,
  freeEdgePorts,
  startProcess,
  stopAllProcesses,
  takeOpenApiViolations,
  waitForUrl,
} from '@test/support';

/**
 * The dist processes tests spawn check their own exchanges (OPENAPI_VIOLATIONS_FILE, set by
 * startProcess): what the document does not describe reaches the test as
 * `[role process pid] METHOD path -> status: problem`, and the jest setup fails the test with it.
 */
describe('exchanges of spawned processes, checked against the OpenAPI document', () => {
  const databases: TestDatabase[] = [];
  let checked: { url: string; pid: number };
  let unchecked: string;
  let apiKey: string;

  beforeAll(async () => {
    databases.push(await createTestDatabase(), await createTestDatabase());
    const env = async (database: TestDatabase) => ({
      PORT: '0',
      DATABASE_URL: database.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ...(await freeEdgePorts()),
    });
    const withCheck = startProcess('dist/apps/standalone/src/main.js', await env(databases[0]));
    // An empty value is unset: the process installs no check.
    const without = startProcess('dist/apps/standalone/src/main.js', {
      ...(await env(databases[1])),
      OPENAPI_VIOLATIONS_FILE: '',
    });
    const [url, otherUrl] = await Promise.all([waitForUrl(withCheck), waitForUrl(without)]);
    checked = { url, pid: withCheck.child.pid! };
    unchecked = otherUrl;
    const created = await fetch(`${url}/admin/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Checked', paymentMethod: 'pm_card_visa' }),
    });
    expect(created.status).toBe(201);
    apiKey = ((await created.json()) as { apiKey: string }).apiKey;
  }, 180_000);

  afterAll(async () => {
    await stopAllProcesses();
    await Promise.all(databases.map((d) => d.drop()));
  });

  const send = (base: string, method: string, path: string, token = apiKey) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}` } });

  it('finds nothing in exchanges the document describes, errors included', async () => {
    expect((await send(checked.url, 'GET', '/v1/workspace')).status).toBe(200);
    expect((await send(checked.url, 'GET', '/v1/domains?limit=2')).status).toBe(200);
    expect((await send(checked.url, 'GET', '/v1/domains/dom_missing')).status).toBe(404);
    expect((await send(checked.url, 'GET', '/v1/domains?limit=0')).status).toBe(400);
    expect((await send(checked.url, 'GET', '/v1/workspace', 'sk_live_wrong')).status).toBe(401);
    expect((await send(checked.url, 'GET', '/healthz')).status).toBe(200);
    expect(takeOpenApiViolations()).toEqual([]);
  });

  it('names the process, route, status and problem of an exchange the document does not describe', async () => {
    // Fastify answers HEAD for every GET route; the document describes no HEAD operation.
    expect((await send(checked.url, 'HEAD', '/v1/workspace')).status).toBe(200);
    expect(takeOpenApiViolations()).toEqual([
      `[standalone process ${checked.pid}] HEAD /v1/workspace -> 200: no operation of the document describes this request`,
    ]);
  });

  it('checks nothing in a process started without the variable', async () => {
    expect((await send(unchecked, 'HEAD', '/healthz')).status).toBe(200);
    expect((await send(checked.url, 'HEAD', '/healthz')).status).toBe(200);
    expect(takeOpenApiViolations()).toEqual([
      `[standalone process ${checked.pid}] HEAD /healthz -> 200: no operation of the document describes this request`,
    ]);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TEST_ADMIN_TOKEN,
  TestDatabase,
  createTestDatabase,
  eventually,
  sleep,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  freeEdgePorts,
  startDnsServer,
  domainZones,
  domainEnv,
  ORIGIN_URL,
  waitForUrl,
  clusterProcessEnv,
} from '@test/support';

async function api(base: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

afterAll(() => stopAllProcesses());

/**
 * The standalone starts its own PostgreSQL (about 4 s here on an initialized DATA_DIR, 10 s with
 * initdb); with the whole suite on two cores it took over 60 s once: these tests check behaviour,
 * not start-up time, so each start may take up to 150 s.
 */
const STANDALONE_START_MS = 150_000;

describe('standalone on the embedded PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'standalone-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'starts with no configuration, generates the admin token into DATA_DIR, and keeps data across restarts',
    async () => {
      const env = { PORT: '0', DATA_DIR: dataDir, ...(await freeEdgePorts()) };
      const first = startProcess('dist/apps/standalone/src/main.js', env);
      const url = await waitForUrl(first, STANDALONE_START_MS);
      // Piped output is a log stream: the banner names the file, never the token.
      expect(await first.waitFor(/Admin token: (in \S+)/)).toBe(`in ${dataDir}/admin-token`);
      const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      expect(first.output()).not.toContain(token);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const created = await api(url, 'POST', '/admin/workspaces', token, {
        name: 'Embedded',
        paymentMethod: 'pm_card_visa',
      });
      expect(created.status).toBe(201);
      expect(await first.stop()).toBe(0);

      const second = startProcess('dist/apps/standalone/src/main.js', env);
      const url2 = await waitForUrl(second, STANDALONE_START_MS);
      await second.waitFor(/Admin token: in /);
      expect(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim()).toBe(token);
      const me = await api(url2, 'GET', '/v1/workspace', created.body.apiKey);
      expect(me.status).toBe(200);
      expect(me.body.workspace).toMatchObject({
        id: created.body.workspace.id,
        name: 'Embedded',
        hasPaymentMethod: true,
      });
      expect(await second.stop()).toBe(0);
    },
    2 * STANDALONE_START_MS + 60_000,
  );

  it(
    'refuses a second process on the same DATA_DIR',
    async () => {
      const first = startProcess('dist/apps/standalone/src/main.js', {
        PORT: '0',
        DATA_DIR: dataDir,
        ...(await freeEdgePorts()),
      });
      await waitForUrl(first, STANDALONE_START_MS);
      const second = startProcess('dist/apps/standalone/src/main.js', {
        PORT: '0',
        DATA_DIR: dataDir,
        ...(await freeEdgePorts()),
      });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/in use by process/);
      await first.stop();
    },
    STANDALONE_START_MS + 60_000,
  );
});

describe('bad configuration', () => {
  it.each([
    ['PORT', 'abc', /^Invalid configuration: PORT must be an integer from 0 to 65535 \(got "abc"\)$/],
    ['LOG_LEVEL', 'loud', /^Invalid configuration: LOG_LEVEL must be one of/],
    ['DATABASE_URL', 'mysql://x', /^Invalid configuration: DATABASE_URL must use postgres: or postgresql:/],
    ['OUTBOUND_ALLOW_CIDRS', '10.0.0.0/33', /^Invalid configuration: OUTBOUND_ALLOW_CIDRS must list CIDR ranges/],
  ])('exits non-zero with one line naming %s', async (name, value, message) => {
    const proc = startProcess('dist/apps/standalone/src/main.js', { [name]: value, DATA_DIR: '/nonexistent' });
    expect(await proc.exited).toBe(78);
    const lines = proc.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it('requires DATABASE_URL and NATS_URL for the split processes', async () => {
    const proc = startProcess('dist/apps/node/src/main.js', {});
    expect(await proc.exited).toBe(78);
    expect(proc.output().trim()).toBe('Invalid configuration: DATABASE_URL is required by the node process');
  });
});

describe('the split processes on PostgreSQL and NATS', () => {
  const prefix = uniqueSubjectPrefix();
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await stopAllProcesses();
    await db?.drop();
  });

  const env = () => clusterProcessEnv(db.url, prefix);

  it('starts node and edge, which answer health and readiness', async () => {
    const node = startProcess('dist/apps/node/src/main.js', { ...env(), NODE_ID: 'node-a' });
    const edge = startProcess('dist/apps/edge/src/main.js', { ...env(), ...(await freeEdgePorts()) });
    for (const proc of [node, edge]) {
      const url = await waitForUrl(proc);
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ ok: true });
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ ok: true, checks: { database: 'ok', bus: 'ok' } });
      expect(await (await fetch(`${url}/metrics`)).text()).toMatch(/process_cpu_user_seconds_total/);
    }
    expect(node.output()).toMatch(/node node-a up/);
    expect(await node.stop()).toBe(0);
    expect(await edge.stop()).toBe(0);
  });

  /** A port held on every interface by another server, as a running quickstart holds 8080. */
  async function occupiedPort(): Promise<{ port: number; server: Server }> {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '0.0.0.0', done));
    return { port: (server.address() as { port: number }).port, server };
  }

  it.each([
    ['edge', 'EDGE_HTTP_PORT', 'set EDGE_HTTP_PORT/EDGE_HTTPS_PORT to free ports'],
    ['edge', 'EDGE_HTTPS_PORT', 'set EDGE_HTTP_PORT/EDGE_HTTPS_PORT to free ports'],
    ['api', 'PORT', 'set PORT to a free port'],
  ])('%s exits with a line naming %s when its port is taken', async (app, setting, fix) => {
    const { port, server } = await occupiedPort();
    try {
      const proc = startProcess(`dist/apps/${app}/src/main.js`, {
        ...env(),
        ...(await freeEdgePorts()),
        [setting]: String(port),
      });
      expect(await proc.exited).toBe(1);
      // Nest may log Node's own "listen EADDRINUSE" line too (the api's listen), before or after it.
      expect(proc.output().split('\n')).toContain(
        `Failed to start ${app}: ${setting} ${port} is in use (EADDRINUSE): ${fix}`,
      );
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('revokes a key on every API replica at once', async () => {
    const a = startProcess('dist/apps/api/src/main.js', env());
    const b = startProcess('dist/apps/api/src/main.js', env());
    const [urlA, urlB] = await Promise.all([waitForUrl(a), waitForUrl(b)]);
    const created = await api(urlA, 'POST', '/admin/workspaces', TEST_ADMIN_TOKEN, { name: 'Replicated' });
    expect(created.status).toBe(201);
    // Warm replica B's cache, then revoke through A.
    expect((await api(urlB, 'GET', '/v1/workspace', created.body.apiKey)).status).toBe(200);
    expect((await api(urlA, 'DELETE', `/admin/api-keys/${created.body.apiKeyId}`, TEST_ADMIN_TOKEN)).status).toBe(200);
    const status = await eventually(
      async () => (await api(urlB, 'GET', '/v1/workspace', created.body.apiKey)).status,
      (seen) => seen !== 200,
      { timeoutMs: 1_000, everyMs: 10, what: 'the revoked key to stop working on replica B' },
    );
    expect(status).toBe(401);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a card removed through one API replica stops creations on every replica at once', async () => {
    const dns = await startDnsServer(domainZones());
    try {
      const withDns = { ...env(), ...domainEnv(dns.address), RATE_LIMITS: 'off' };
      const a = startProcess('dist/apps/api/src/main.js', withDns);
      const b = startProcess('dist/apps/api/src/main.js', withDns);
      const node = startProcess('dist/apps/node/src/main.js', { ...withDns, NODE_ID: 'node-c' });
      const [urlA, urlB] = await Promise.all([waitForUrl(a), waitForUrl(b), waitForUrl(node)]);
      const ws = await api(urlA, 'POST', '/admin/workspaces', TEST_ADMIN_TOKEN, {
        name: 'carded',
        paymentMethod: 'pm_card_visa',
      });
      const { apiKey } = ws.body;
      const card = `/admin/workspaces/${ws.body.workspace.id}/payment-method`;
      let n = 0;
      const createOnB = async () =>
        (
          await api(urlB, 'POST', '/v1/domains', apiKey, {
            hostname: `card${n++}.customer-a.com`,
            originUrl: ORIGIN_URL,
          })
        ).status;
      // Replica B reads the card and keeps it (30 s) for the creations that follow.
      expect(await createOnB()).toBe(201);
      expect((await api(urlA, 'DELETE', card, TEST_ADMIN_TOKEN)).status).toBe(200);
      const refused = await eventually(createOnB, (status) => status !== 201, {
        timeoutMs: 1_000,
        everyMs: 10,
        what: 'replica B to stop creating domains once the card is gone',
      });
      expect(refused).toBe(402);
      // "No card" is never kept: a card added through A counts on B at once.
      expect((await api(urlA, 'PUT', card, TEST_ADMIN_TOKEN, { paymentMethod: 'pm_card_visa' })).status).toBe(200);
      expect(await createOnB()).toBe(201);
      await Promise.all([a.stop(), b.stop(), node.stop()]);
    } finally {
      await dns.close();
    }
  });

  it('shares one rate-limit budget and idempotency across API replicas', async () => {
    const dns = await startDnsServer(domainZones());
    try {
      const a = startProcess('dist/apps/api/src/main.js', { ...env(), ...domainEnv(dns.address) });
      const b = startProcess('dist/apps/api/src/main.js', { ...env(), ...domainEnv(dns.address) });
      const node = startProcess('dist/apps/node/src/main.js', {
        ...env(),
        ...domainEnv(dns.address),
        NODE_ID: 'node-r',
      });
      const [urlA, urlB] = await Promise.all([waitForUrl(a), waitForUrl(b), waitForUrl(node)]);
      const ws = (name: string) =>
        api(urlA, 'POST', '/admin/workspaces', TEST_ADMIN_TOKEN, { name, paymentMethod: 'pm_card_visa' });
      const [limited, idem] = [(await ws('limited')).body.apiKey, (await ws('idem')).body.apiKey];
      const msLeft = 60_000 - (Date.now() % 60_000);
      // Time must pass: the limit counts per wall-clock minute in PostgreSQL, shared by both api processes;
      // all 62 calls must land in one window.
      if (msLeft < 20_000) await sleep(msLeft + 200);
      for (let i = 0; i < 30; i++) expect((await api(urlA, 'GET', '/v1/workspace', limited)).status).toBe(200);
      for (let i = 0; i < 30; i++) expect((await api(urlB, 'GET', '/v1/workspace', limited)).status).toBe(200);
      const overA = await api(urlA, 'GET', '/v1/workspace', limited);
      const overB = await api(urlB, 'GET', '/v1/workspace', limited);
      expect([overA.status, overB.status]).toEqual([429, 429]);
      expect(overB.body.details.action).toBe('api');

      const post = (url: string) =>
        fetch(`${url}/v1/domains`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${idem}`,
            'content-type': 'application/json',
            'idempotency-key': 'replicas-1',
          },
          body: JSON.stringify({ hostname: 'replicas.customer-a.com', originUrl: ORIGIN_URL }),
        });
      const results = await Promise.all([urlA, urlB, urlA, urlB, urlA, urlB].map(post));
      expect(results.filter((r) => r.status === 201 && !r.headers.get('idempotent-replay'))).toHaveLength(1);
      const list = await api(urlB, 'GET', '/v1/domains', idem);
      expect(list.body.domains).toHaveLength(1);
      await Promise.all([a.stop(), b.stop(), node.stop()]);
    } finally {
      await dns.close();
    }
  });
});

import {
  TEST_ADMIN_TOKEN,
  TestDatabase,
  callApi,
  clusterProcessEnv,
  consoleShot,
  createTestDatabase,
  eventually,
  freeEdgePorts,
  launchChromium,
  signInConsole,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
} from '@test/support';
import type { Browser } from 'playwright-core';

jest.setTimeout(180_000);

interface ClusterAnswer {
  nodes: { nodeId: string }[];
  processes: { role: string; nodeId: string; pid: number }[];
  departed: { nodeId: string; at: string; reason: string }[];
}

/**
 * The cluster page: every process is listed (api and edge too, not only nodes), and a node
 * that left stays visible for an hour with when and why: one shut down (SIGTERM), one killed.
 */
describe('the cluster as support sees it: every process, and the nodes that left', () => {
  let db: TestDatabase;
  let browser: Browser | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await browser?.close();
    await stopAllProcesses();
    await db?.drop();
  });

  it('lists api, edge and nodes, then says which node shut down and which died', async () => {
    const env = { ...clusterProcessEnv(db.url, uniqueSubjectPrefix()), RATE_LIMITS: 'off' };
    const api = startProcess('dist/apps/api/src/main.js', env);
    const edge = startProcess('dist/apps/edge/src/main.js', { ...env, ...(await freeEdgePorts()) });
    const nodes = ['n1', 'n2', 'n3'].map((id) => startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: id }));
    const [url] = await Promise.all([api, edge, ...nodes].map((p) => waitForUrl(p, 120_000)));
    const cluster = async () => (await callApi(url, 'GET', '/admin/cluster', TEST_ADMIN_TOKEN)).body as ClusterAnswer;

    const everyone = await eventually(cluster, (c) => c.processes.length === 5 && c.nodes.length === 3, {
      timeoutMs: 30_000,
      what: 'every process to answer',
    });
    expect(everyone.processes.map((p) => p.role).sort()).toEqual(['api', 'edge', 'node', 'node', 'node']);
    expect(everyone.processes.filter((p) => p.role === 'node').map((p) => p.nodeId)).toEqual(['n1', 'n2', 'n3']);
    expect(everyone.processes.find((p) => p.role === 'edge')!.pid).toBe(edge.child.pid);
    expect(everyone.departed).toEqual([]);

    // n2 shuts down cleanly; n3 dies.
    expect(await nodes[1].stop()).toBe(0);
    nodes[2].child.kill('SIGKILL');
    const after = await eventually(cluster, (c) => c.departed.length === 2, {
      timeoutMs: 30_000,
      what: 'both departures to be reported',
    });
    expect(
      after.departed.map(({ nodeId, reason }) => ({ nodeId, reason })).sort((a, b) => a.nodeId.localeCompare(b.nodeId)),
    ).toEqual([
      { nodeId: 'n2', reason: 'left' },
      { nodeId: 'n3', reason: 'killed' },
    ]);
    expect(after.processes.map((p) => p.nodeId)).not.toContain('n3');

    // The console shows the same, in words, at desktop and phone width.
    const operator = { email: 'cluster-ops@example.com', password: 'operator-password-1' };
    expect(
      (await callApi(url, 'POST', '/admin/console-users', TEST_ADMIN_TOKEN, { ...operator, operator: true })).status,
    ).toBe(201);
    browser = await launchChromium();
    const page = await signInConsole(browser, url.replace('[::1]', '127.0.0.1'), operator);
    await page.goto(`${url}/console/cluster`);
    const departed = page.locator('table', { has: page.getByRole('columnheader', { name: 'Why' }) });
    await expect(departed.getByRole('row', { name: /n2/ }).textContent()).resolves.toMatch(/Shut down cleanly/);
    await expect(departed.getByRole('row', { name: /n3/ }).textContent()).resolves.toMatch(/Died/);
    const processes = page.locator('table', { has: page.getByRole('columnheader', { name: 'PID' }) });
    // A header, then api, edge and the node still running.
    await expect(processes.getByRole('row').count()).resolves.toBe(1 + 3);
    await consoleShot(page, 'cluster-departed-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload(); // afresh: axe leaves its marks in the page it checked
    await consoleShot(page, 'cluster-departed-phone');
    await page.context().close();
  });
});

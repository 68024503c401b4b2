import {
  CounterCluster,
  TEST_ADMIN_TOKEN,
  TestDatabase,
  counterCluster,
  createTestDatabase,
  startProcess,
  stopAllProcesses,
  waitForUrl,
  clusterProcessEnv,
} from '@test/support';

describe('actor cluster basics', () => {
  let db: TestDatabase;
  let cluster: CounterCluster;

  beforeAll(async () => {
    db = await createTestDatabase();
    cluster = counterCluster(db.url);
  });
  afterAll(async () => {
    await cluster?.close();
    await stopAllProcesses();
    await db?.drop();
  });

  it('routes commands to actors on two nodes and persists them', async () => {
    await Promise.all([cluster.start('n1'), cluster.start('n2')]);
    const owners = await cluster.waitForCoverage(['n1', 'n2']);
    expect(owners.get('n1')! + owners.get('n2')!).toBe(4096);
    const { actors } = await cluster.client();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        actors.ask<{ value: number; owner: string }>('counter', `c${i}`, { op: 'add', n: i }),
      ),
    );
    expect(replies.map((r) => r.value)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(new Set(replies.map((r) => r.owner))).toEqual(new Set(['n1', 'n2']));
    const again = await actors.ask<{ value: number }>('counter', 'c7', { op: 'add', n: 1 });
    expect(again.value).toBe(8);
  });

  it('reports which node owns which shards through the API and `npm run admin -- cluster-status`', async () => {
    const api = startProcess('dist/apps/api/src/main.js', {
      ...clusterProcessEnv(db.url, cluster.prefix),
    });
    const url = await waitForUrl(api);
    const run = startProcess('dist/apps/cli/src/main.js', { API_URL: url, ADMIN_TOKEN: TEST_ADMIN_TOKEN }, [
      'cluster-status',
    ]);
    expect(await run.exited).toBe(0);
    const status = JSON.parse(run.output()) as { unowned: number; nodes: { nodeId: string; shardsOwned: number }[] };
    expect(status.unowned).toBe(0);
    expect(status.nodes.map((n) => n.nodeId)).toEqual(['n1', 'n2']);
    expect(status.nodes.reduce((sum, n) => sum + n.shardsOwned, 0)).toBe(4096);
    await api.stop();
  });
});

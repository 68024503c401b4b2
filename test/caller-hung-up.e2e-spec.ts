import {
  callApi,
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestDatabase,
  clusterProcessEnv,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventually,
  sleep,
  startDnsServer,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
} from '@test/support';
import { Client } from 'pg';

jest.setTimeout(180_000);

const HOSTNAME = 'hung-up.example-saas.com';

/**
 * A client that gives up on a request must not have its write applied later, after the writes it
 * made next: found by the failover test, where a PATCH abandoned at 10 s was sent again by the api for
 * 30 s and undid the client's next, acknowledged PATCH. Here the domain's node is paused (SIGSTOP) with
 * the PATCH in its socket, the client hangs up, the node is killed and another takes over: the api
 * drops the command instead of sending it to the new owner.
 */
describe('a command whose HTTP client hung up (api + a node that dies with it)', () => {
  let db: TestDatabase;
  let dns: DnsServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
    dns.setRecords(HOSTNAME, [{ type: 'CNAME', data: EDGE_TARGET }]);
  });
  afterAll(async () => {
    await stopAllProcesses();
    await dns?.close();
    await db?.drop();
  });

  it('is not sent again once its client hung up, so it cannot land after that client’s next write', async () => {
    const env = { ...clusterProcessEnv(db.url, uniqueSubjectPrefix()), ...domainEnv(dns.address), RATE_LIMITS: 'off' };
    const api = startProcess('dist/apps/api/src/main.js', { ...env, LOG_LEVEL: 'info' });
    const url = await waitForUrl(api, 120_000);
    const n1 = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n1' });
    await waitForUrl(n1, 120_000);
    const call = (method: string, path: string, token: string, body?: unknown, timeoutMs = 30_000) =>
      callApi(url, method, path, token, body, timeoutMs);
    const key = (
      await call('POST', '/admin/workspaces', TEST_ADMIN_TOKEN, { name: 'hung-up', paymentMethod: 'pm_card_visa' })
    ).body.apiKey as string;
    const created = await call('POST', '/v1/domains', key, { hostname: HOSTNAME, originUrl: ORIGIN_URL });
    expect(created.status).toBe(201);
    const id = created.body.domain.id as string;

    // The node takes the PATCH into its socket and never reads it; the client gives up after 1.5 s.
    n1.child.kill('SIGSTOP');
    const abandoned = call('PATCH', `/v1/domains/${id}`, key, { metadata: { from: 'abandoned' } }, 1_500);
    await expect(abandoned).rejects.toMatchObject({ name: 'TimeoutError' });
    // The node dies with the command; a new one takes its shards over.
    n1.child.kill('SIGKILL');
    // Started once more if it exits at start, as Kubernetes would: 2 of ~10 runs saw this node give up at start
    // ("Knex: Timeout acquiring a connection", 10 s) right after n1's kill, not explained yet.
    const startN2 = async () => {
      const proc = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n2' });
      await waitForUrl(proc, 120_000);
      return proc;
    };
    await startN2().catch((error: Error) => {
      // Its output says why (the 10 s pool wait's cause is still open): printed for the next run's reader.
      console.warn(`n2 exited at start and is started again; its output ended with:\n${error.message.slice(-4_000)}`);
      return startN2();
    });
    await api.waitFor(/Actor command not sent: its HTTP caller hung up/, 60_000);

    // The client's next write is acknowledged, and stays: the abandoned one never lands after it.
    const next = await call('PATCH', `/v1/domains/${id}`, key, { metadata: { from: 'next' } });
    expect(next.status).toBe(200);
    await sleep(3_000);
    const read = await eventually(
      () => call('GET', `/v1/domains/${id}`, key),
      (r) => r.status === 200,
      { what: 'the domain to read' },
    );
    expect(read.body.domain.metadata).toEqual({ from: 'next' });
    // Nor applied at all: the paused node died before reading it, and nobody was sent it again (every
    // applied command is recorded with its reply, the domain as it left it).
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      // (Other commands' replies carry the domain too, the monitor's first probe among them.)
      const { rows } = await pg.query<{ from: string; commands: string }>(
        `select reply->'domain'->'metadata'->>'from' as from, count(*) as commands from actor_commands
          where actor_id = $1 and reply->'domain'->'metadata' ? 'from' group by 1`,
        [id],
      );
      expect(rows.map((r) => r.from)).toEqual(['next']);
    } finally {
      await pg.end();
    }
  });
});

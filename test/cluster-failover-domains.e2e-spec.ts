/**
 * @run-alone: its assertions include times (the failover and outage goals), so it starts after every other file
 * and waits for them to finish (test/support/run-alone.ts); times are judged only when the CPU
 * accounting says the machine was not busy with other work (judgeTimes).
 */
import {
  callApi,
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  ServiceProcess,
  TEST_ADMIN_TOKEN,
  TestDatabase,
  clusterProcessEnv,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventually,
  sleep,
  startDnsServer,
  runAlone,
  startCpuAccounting,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
  RUN_ALONE_MAX_WAIT_MS,
  judgeTimes,
} from '@test/support';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';

const DOMAINS = Array.from({ length: 120 }, (_, i) => `f${i}.failover-domains.com`);
/** Each domain is written this often, by a client that gives up on a request after 10 s. */
const WRITE_EVERY_MS = 4_000;
const CLIENT_TIMEOUT_MS = 10_000;
/**
 * The failover goal: every domain writable again within 5 s of the SIGKILL, no request failed, p99 of requests
 * meanwhile under 5 s: 1.96 s (p99 1.9 s) here, 1.24 s in the `actors.failover` bench. Asserted when
 * the test had the machine: it runs alone (`@run-alone`), and the CPU accounting of the failover window
 * says whether other work took more than a third of the machine anyway (someone else's busy machine).
 * Then only what holds under any load is asserted, and the figures are printed: at load 24 on two
 * cores (the test's processes got 0.3 cores) the survivors took over 2-3 s after the kill, as designed,
 * but the starved api and client took 20 s and more per request.
 */
const GOAL_MS = 5_000;
jest.setTimeout(300_000);

interface Write {
  hostname: string;
  seq: number;
  sentAt: number;
  ms: number;
  status: number | string;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

/**
 * The failover measured with real processes: one api and three nodes on PostgreSQL and NATS, 120
 * domains each patched every 4 s by a client with a 10 s timeout, and one node SIGKILLed. At the kill
 * every domain is written once more, and the slowest of those says when every domain took writes again.
 */
describe('a node SIGKILLed under domain writes (api + three nodes)', () => {
  let db: TestDatabase;
  let dns: DnsServer;
  let pg: Client;
  const nodes = new Map<string, ServiceProcess>();

  beforeAll(async () => {
    const alone = await runAlone();
    console.log(
      `ran alone after waiting ${alone.waitedMs} ms; still running: ${alone.stillRunning.join(', ') || 'nothing'}`,
    );
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
    for (const hostname of DOMAINS) dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE_TARGET }]);
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  }, RUN_ALONE_MAX_WAIT_MS + 60_000);
  afterAll(async () => {
    // The processes' logs, for reading how the failover went (test/artifacts, as the outage tests keep theirs).
    mkdirSync('test/artifacts', { recursive: true });
    for (const [id, proc] of nodes) writeFileSync(`test/artifacts/failover-domains-${id}.log`, proc.output());
    await stopAllProcesses();
    await pg?.end();
    await dns?.close();
    await db?.drop();
  });

  it('takes writes to every domain again within 5 s, with no failed request and no acknowledged write lost', async () => {
    const env = { ...clusterProcessEnv(db.url, uniqueSubjectPrefix()), ...domainEnv(dns.address), RATE_LIMITS: 'off' };
    const api = startProcess('dist/apps/api/src/main.js', { ...env, LOG_LEVEL: 'info' });
    nodes.set('api', api);
    const url = await waitForUrl(api, 120_000);
    for (const id of ['n1', 'n2', 'n3'])
      nodes.set(id, startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: id, LOG_LEVEL: 'info' }));
    await Promise.all([...nodes.values()].map((n) => waitForUrl(n, 120_000)));
    await eventually(
      async () => (await pg.query('select distinct owner from shard_leases where expires_at > now()')).rows.length,
      (owners) => owners === 3,
      { what: 'all three nodes owning shards', timeoutMs: 60_000 },
    );

    const call = (method: string, path: string, token: string, body?: unknown, timeoutMs = CLIENT_TIMEOUT_MS) =>
      callApi(url, method, path, token, body, timeoutMs);
    const ws = await call('POST', '/admin/workspaces', TEST_ADMIN_TOKEN, {
      name: 'failover',
      paymentMethod: 'pm_card_visa',
    });
    const apiKey = ws.body.apiKey as string;
    const ids = new Map<string, string>();
    for (let i = 0; i < DOMAINS.length; i += 10)
      await Promise.all(
        DOMAINS.slice(i, i + 10).map(async (hostname) => {
          const created = await call('POST', '/v1/domains', apiKey, { hostname, originUrl: ORIGIN_URL });
          expect(created.status).toBe(201);
          ids.set(hostname, created.body.domain.id as string);
        }),
      );

    const writes: Write[] = [];
    const acked = new Map<string, number>();
    const write = async (hostname: string, seq: number): Promise<Write> => {
      const sentAt = Date.now();
      let status: number | string;
      try {
        ({ status } = await call('PATCH', `/v1/domains/${ids.get(hostname)}`, apiKey, { metadata: { seq } }));
      } catch (error) {
        status = (error as Error).name; // TimeoutError: the client gave up after 10 s
      }
      const done = { hostname, seq, sentAt, ms: Date.now() - sentAt, status };
      writes.push(done);
      if (status === 200) acked.set(hostname, Math.max(acked.get(hostname) ?? 0, seq));
      return done;
    };
    // Each domain on its own 4 s schedule, spread over the interval; one request at a time per domain.
    let running = true;
    let seq = 0;
    const writers = DOMAINS.map(async (hostname, i) => {
      await sleep((i * WRITE_EVERY_MS) / DOMAINS.length);
      while (running) {
        const started = Date.now();
        await write(hostname, ++seq);
        await sleep(Math.max(0, WRITE_EVERY_MS - (Date.now() - started)));
      }
    });
    await sleep(2 * WRITE_EVERY_MS);

    const onN2Rows = (
      await pg.query<{ hostname: string; expires_at: Date }>(
        "select d.hostname, l.expires_at from domains d join shard_leases l on l.shard = d.shard where l.owner = 'n2'",
      )
    ).rows;
    const onN2 = onN2Rows.map((r) => r.hostname);
    /** When the leases under n2's domains would run out on their own (same machine: one clock). */
    const leasesRunOutAt = Math.max(...onN2Rows.map((r) => new Date(r.expires_at).getTime()));
    expect(onN2.length).toBeGreaterThan(10);
    const killedAt = Date.now();
    console.log(`killing n2 at ${new Date(killedAt).toISOString()}`);
    const cpu = startCpuAccounting();
    nodes.get('n2')!.child.kill('SIGKILL');
    // At the kill, every domain once more: the last acknowledgement is when all took writes again.
    const atKill = await Promise.all(DOMAINS.map((hostname) => write(hostname, ++seq)));
    const cpuDuringFailover = cpu.stop();
    const allWritableAfterMs = Math.max(...atKill.map((w) => w.sentAt + w.ms)) - killedAt;
    await sleep(2 * WRITE_EVERY_MS);
    running = false;
    await Promise.all(writers);

    const duringFailover = writes.filter((w) => w.sentAt + w.ms >= killedAt && w.sentAt <= killedAt + GOAL_MS);
    const failed = writes.filter((w) => w.status !== 200);
    const figures = {
      domainsOnKilledNode: onN2.length,
      allWritableAfterMs,
      slowestOnKilledNodeMs: Math.max(...atKill.filter((w) => onN2.includes(w.hostname)).map((w) => w.ms)),
      requests: writes.length,
      failed: failed.length,
      duringFailover: duringFailover.length,
      p99DuringFailoverMs: p99(duringFailover.map((w) => w.ms)),
      slowestMs: Math.max(...writes.map((w) => w.ms)),
      leaseLeftAtKillMs: leasesRunOutAt - killedAt,
      clientTimeoutMs: CLIENT_TIMEOUT_MS,
      cpuDuringFailover,
    };
    console.log(`domain failover figures: ${JSON.stringify(figures)}`);
    // Taken over, not waited out: a survivor saw n2 gone from PostgreSQL and NATS and took its shards.
    const survivors = [...nodes].filter(([id]) => id !== 'n2').map(([, proc]) => proc.output());
    expect(survivors.some((out) => /Nodes gone from PostgreSQL and NATS: [^\n]*n2[^\n]*taking over/.test(out))).toBe(
      true,
    );
    judgeTimes(cpuDuringFailover, 'failover', () => {
      expect(failed).toEqual([]);
      expect(allWritableAfterMs).toBeLessThan(GOAL_MS);
      expect(figures.p99DuringFailoverMs).toBeLessThan(GOAL_MS);
    });
    // Every domain takes writes after the failover, however slow the machine.
    const after = await Promise.all(
      DOMAINS.map((hostname) =>
        call('PATCH', `/v1/domains/${ids.get(hostname)}`, apiKey, { metadata: { seq: ++seq } }, 60_000),
      ),
    );
    expect(after.filter((r) => r.status !== 200)).toEqual([]);
    DOMAINS.forEach((hostname, i) => acked.set(hostname, after[i].body.domain.metadata.seq as number));

    // No acknowledged write lost: each domain holds the last value it was acknowledged with.
    const stored = await pg.query<{ hostname: string; seq: string }>(
      "select hostname, state->'metadata'->>'seq' as seq from domains where hostname = any($1) and deleted_at is null",
      [DOMAINS],
    );
    expect(stored.rows).toHaveLength(DOMAINS.length);
    for (const row of stored.rows)
      expect(`${row.hostname} ${row.seq}`).toBe(`${row.hostname} ${acked.get(row.hostname)}`);
    // The survivors took n2's shards over long before its leases could have run out.
    const owners = await pg.query<{ owner: string }>(
      'select distinct l.owner from domains d join shard_leases l on l.shard = d.shard where d.hostname = any($1)',
      [onN2],
    );
    for (const { owner } of owners.rows) expect(['n1', 'n3']).toContain(owner);
  });
});

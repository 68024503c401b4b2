/**
 * @run-alone: its assertions include times (the failover and outage goals), so it starts after every other file
 * and waits for them to finish (test/support/run-alone.ts); times are judged only when the CPU
 * accounting says the machine was not busy with other work (judgeTimes).
 */
import {
  DnsServer,
  ORIGIN_URL,
  REGISTRANT,
  ServiceProcess,
  TestDatabase,
  clusterProcessEnv,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventually,
  purchaseWorkspace,
  startDnsServer,
  startProcess,
  stopAllProcesses,
  uniqueDomain,
  uniqueSubjectPrefix,
  waitForUrl,
  RUN_ALONE_MAX_WAIT_MS,
  judgeTimes,
  runAlone,
  startCpuAccounting,
  CpuShare,
} from '@test/support';
import { Client } from 'pg';

/** The failover goal: the purchase is answered and completed within this of the kill; a client waits 10 s at most. */
const GOAL_MS = 5_000;
const CLIENT_TIMEOUT_MS = 10_000;
/** Purchases tried until one lands on the node armed to die (each does with a chance of 1 in 3). */
const MAX_TRIES = 15;
jest.setTimeout(300_000);

/**
 * A node SIGKILLed while it holds a purchase actor mid-saga, with two other nodes alive: the node
 * (test/fixtures/crash-node.main.ts) kills itself right after the payment provider charged and
 * before the saga recorded it. A survivor takes the purchase over within about a second and
 * finishes the saga: the client's request is answered in time, and the card is charged once.
 */
describe('a node SIGKILLed mid-purchase saga, with survivors (api + three nodes)', () => {
  let db: TestDatabase;
  let dns: DnsServer;
  let pg: Client;
  const nodes = new Map<string, ServiceProcess>();

  beforeAll(async () => {
    await runAlone();
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  }, RUN_ALONE_MAX_WAIT_MS + 60_000);
  afterAll(async () => {
    await stopAllProcesses();
    await pg?.end();
    await dns?.close();
    await db?.drop();
  });

  it('completes the purchase on a survivor within 5 s of the kill, charged once, and answers the client', async () => {
    const env = {
      ...clusterProcessEnv(db.url, uniqueSubjectPrefix()),
      ...domainEnv(dns.address),
      RATE_LIMITS: 'off',
      PURCHASE_SWEEP_SECONDS: '1',
    };
    const api = await waitForUrl(startProcess('dist/apps/api/src/main.js', env), 120_000);
    nodes.set('n1', startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n1' }));
    nodes.set('n3', startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n3' }));
    nodes.set(
      'n2',
      startProcess('dist/test/fixtures/crash-node.main.js', {
        ...env,
        NODE_ID: 'n2',
        PURCHASE_CRASH_AFTER: 'after:charge',
      }),
    );
    await Promise.all([...nodes.values()].map((n) => waitForUrl(n, 120_000)));
    await eventually(
      async () => (await pg.query('select distinct owner from shard_leases where expires_at > now()')).rows.length,
      (owners) => owners === 3,
      { what: 'all three nodes owning shards', timeoutMs: 60_000 },
    );
    const { apiKey } = await purchaseWorkspace(api, 'pm_card_visa');
    const n2 = nodes.get('n2')!;
    let killedAt: number | undefined;
    void n2.exited.then(() => (killedAt = Date.now()));

    const buy = async (hostname: string) => {
      const cpu = startCpuAccounting();
      const sentAt = Date.now();
      const res = await fetch(`${api}/v1/domain-purchases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ hostname, registrant: REGISTRANT, autoConnect: { originUrl: ORIGIN_URL } }),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const body = (await res.json()) as any;
      return { status: res.status, body, answeredAt: Date.now(), sentAt, cpu: cpu.stop() };
    };
    // One purchase at a time until one's actor lives on n2, which dies right after charging for it.
    let crashed: { hostname: string; status: number; body: any; answeredAt: number; cpu: CpuShare } | undefined;
    for (let i = 0; i < MAX_TRIES && !crashed; i++) {
      const hostname = uniqueDomain('crash');
      const answer = await buy(hostname);
      expect([hostname, answer.status]).toEqual([hostname, 201]);
      if (killedAt !== undefined) crashed = { hostname, ...answer };
    }
    expect(crashed).toBeDefined();
    const { hostname, body, answeredAt, cpu } = crashed!;
    expect(n2.child.signalCode).toBe('SIGKILL');
    const id = body.purchase.id as string;
    const answeredAfterKill = answeredAt - killedAt!;
    console.log(`purchase ${id} answered ${answeredAfterKill} ms after its node was killed mid-saga`, cpu);
    judgeTimes(cpu, 'purchase failover', () => expect(answeredAfterKill).toBeLessThan(GOAL_MS));

    const { rows: purchase } = await pg.query<{ status: string }>('select status from purchases where id = $1', [id]);
    expect(purchase).toEqual([{ status: 'completed' }]);
    // Charged once: the survivor's charge carried the same idempotency key, so the provider kept one.
    const { rows: charges } = await pg.query<{ idempotency_key: string; status: string }>(
      "select idempotency_key, status from sandbox_charges where metadata->>'purchaseId' = $1",
      [id],
    );
    expect(charges).toEqual([{ idempotency_key: `purchase:${id}:charge`, status: 'succeeded' }]);
    const { rows: registrations } = await pg.query('select 1 from sandbox_registrations where hostname = $1', [
      hostname,
    ]);
    expect(registrations).toHaveLength(1);
    const { rows: owners } = await pg.query<{ owner: string }>(
      'select distinct l.owner from purchases p join shard_leases l on l.shard = p.shard where p.id = $1',
      [id],
    );
    for (const { owner } of owners) expect(['n1', 'n3']).toContain(owner);
  });
});

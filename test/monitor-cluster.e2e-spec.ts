import {
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  ServiceProcess,
  TEST_ADMIN_TOKEN,
  TestDatabase,
  createTestDatabase,
  domainEnv,
  domainZones,
  startDnsServer,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
  clusterProcessEnv,
  eventually,
  sleep,
} from '@test/support';
import { Client } from 'pg';

const INTERVAL_S = 5;
const DOMAINS = Array.from({ length: 30 }, (_, i) => `m${i}.customer-cluster.com`);

async function json(url: string, method: string, token: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('the monitor across three node processes', () => {
  let db: TestDatabase;
  let dns: DnsServer;
  let pg: Client | undefined;
  const nodes = new Map<string, ServiceProcess>();

  beforeAll(async () => {
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
    for (const hostname of DOMAINS) dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE_TARGET }]);
  });
  afterAll(async () => {
    // Closed before the database is dropped, also when the test failed half-way.
    await pg?.end().catch(() => undefined);
    await stopAllProcesses();
    await dns?.close();
    await db?.drop();
  });

  it('probes each domain once per interval, and again after a node dies', async () => {
    const env = {
      ...clusterProcessEnv(db.url, uniqueSubjectPrefix()),
      MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
      ...domainEnv(dns.address),
    };
    for (const id of ['n1', 'n2', 'n3'])
      nodes.set(id, startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: id }));
    const api = startProcess('dist/apps/api/src/main.js', env);
    const url = await waitForUrl(api);
    await Promise.all([...nodes.values()].map((n) => waitForUrl(n)));

    const ws = await json(`${url}/admin/workspaces`, 'POST', TEST_ADMIN_TOKEN, {
      name: 'cluster',
      paymentMethod: 'pm_card_visa',
    });
    for (const hostname of DOMAINS) {
      const created = await json(`${url}/v1/domains`, 'POST', ws.body.apiKey, { hostname, originUrl: ORIGIN_URL });
      expect(created.status).toBe(201);
    }
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    const shardOwners = async () =>
      new Map(
        (
          await pg!.query<{ hostname: string; owner: string }>(
            'select d.hostname, l.owner from domains d join shard_leases l on l.shard = d.shard',
          )
        ).rows.map((r) => [r.hostname, r.owner]),
      );
    // One probe per distinct query id: a resolver's retransmission (same id) is the same probe.
    const probes = (hostname: string, from = 0) => {
      const seen = new Set<number>();
      return dns.queries
        .filter((q) => q.name === hostname && q.type === 'CNAME' && q.at >= from && !seen.has(q.id) && seen.add(q.id))
        .map((q) => q.at);
    };

    // Steady state: three intervals once every domain has been probed twice (so each is on its schedule).
    await eventually(
      () => DOMAINS.filter((h) => probes(h).length < 2),
      (unprobed) => unprobed.length === 0,
      { what: 'every domain probed twice', timeoutMs: (3 * INTERVAL_S + 20) * 1000, everyMs: 250 },
    );
    // Time must pass: what is measured is how often each domain is probed within a fixed window.
    const windowStart = Date.now();
    await sleep(3 * INTERVAL_S * 1000);
    const windowEnd = Date.now();
    // Each domain's slots: interval k starts at (k + phase) intervals since the epoch.
    const phases = new Map(
      (
        await pg.query<{ hostname: string; phase: number }>(
          "select hostname, (state->>'probePhase')::float8 as phase from domains",
        )
      ).rows.map((r) => [r.hostname, Number(r.phase)]),
    );
    const slotOf = (at: number, phase: number) => Math.floor(at / (INTERVAL_S * 1000) - phase);
    for (const hostname of DOMAINS) {
      const times = probes(hostname, windowStart).filter((at) => at < windowEnd);
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times.length).toBeLessThanOrEqual(4);
      // Each probe in its own slot, one slot after the other: a second probe in one slot repeats a
      // slot, a missed slot skips one. A probe that load on the machine delayed stays in its slot.
      const slots = times.map((at) => slotOf(at, phases.get(hostname)!));
      expect(slots.slice(1).map((slot, i) => slot - slots[i])).toEqual(slots.slice(1).map(() => 1));
    }
    const owners = await shardOwners();
    expect(new Set(owners.values())).toEqual(new Set(['n1', 'n2', 'n3']));

    // n2 dies: its domains are probed again by the survivors once its leases expire.
    const onN2 = DOMAINS.filter((h) => owners.get(h) === 'n2');
    expect(onN2.length).toBeGreaterThan(0);
    nodes.get('n2')!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await eventually(
      () => DOMAINS.filter((h) => probes(h, killedAt).length < 1),
      (unprobed) => unprobed.length === 0,
      { what: 'every domain probed again after n2 died', timeoutMs: 40_000, everyMs: 250 },
    );
    // Probes stay at least 0.4 intervals apart, but for one repeat of a domain of n2: its schedule
    // was in n2's memory, and the survivors resume from the watermark n2 last wrote, repeating the
    // probes n2 made after it (the price of writing no row per probe).
    for (const hostname of DOMAINS) {
      const after = probes(hostname, killedAt);
      expect(after.length).toBeGreaterThanOrEqual(1);
      const all = probes(hostname);
      const close = all.slice(1).filter((at, i) => at - all[i] <= INTERVAL_S * 1000 * 0.4);
      if (!onN2.includes(hostname)) expect(close).toEqual([]);
      else {
        expect(close.length).toBeLessThanOrEqual(1);
        for (const at of close) expect(at).toBeGreaterThan(killedAt);
      }
    }
    const ownersAfter = await shardOwners();
    for (const hostname of onN2) expect(['n1', 'n3']).toContain(ownersAfter.get(hostname));
  });
});

import {
  CERTIFICATE_EDGE,
  CertificateStack,
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  PrivateNats,
  TEST_ADMIN_TOKEN,
  TestApp,
  TestDatabase,
  clusterProcessEnv,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventually,
  startCertificateStack,
  startDnsServer,
  startPrivateNats,
  startProcess,
  startTestApp,
  stopAllProcesses,
  waitForUrl,
} from '@test/support';
import request from 'supertest';

/** The value of one series in a Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const found = Object.fromEntries(
      [...(/\{(.*)\}/.exec(line)?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

/** The series the alerts read that the service exports for them (README, Operations). */
describe('metrics the alerts read (standalone)', () => {
  let t: TestApp;
  let dns: DnsServer;
  const ids: Record<string, string> = {};
  let apiKey: string;

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), MONITOR_INTERVAL_SECONDS: '300' } });
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'alerts', paymentMethod: 'pm_card_visa' })
      .expect(201);
    apiKey = ws.body.apiKey as string;
    for (const name of ['fresh', 'late', 'expired', 'moved', 'overdue']) {
      // Pointed at the edge: a domain starts from the API's DNS lookup, and one whose DNS is not ours
      // holds no certificate we can renew.
      dns.setRecords(`${name}.customer-b.com`, [{ type: 'CNAME', data: EDGE_TARGET }]);
      const created = await request(t.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${ws.body.apiKey as string}`)
        .send({ hostname: `${name}.customer-b.com`, originUrl: ORIGIN_URL })
        .expect(201);
      ids[name] = created.body.domain.id;
    }
    // Lifetimes (before the first scrape: the certificate gauges cache their query for a minute).
    const certificate = (name: string, notBefore: string, notAfter: string) =>
      t.db.query(
        `insert into certificates (domain_id, hostname, cert_pem, key_sealed, not_before, not_after)
         values ($1, $2, 'pem', 'sealed', now() + $3::interval, now() + $4::interval)`,
        [ids[name], `${name}.customer-b.com`, notBefore, notAfter],
      );
    await certificate('fresh', '-10 days', '80 days'); // 89% left
    await certificate('late', '-80 days', '10 days'); // 11% left: renewal overdue
    await certificate('expired', '-91 days', '-1 day');
    await certificate('moved', '-80 days', '10 days'); // the customer's DNS left us: outside the SLO
    await t.db.query(`update domains set monitor_status = 'dns_incorrect' where id = $1`, [ids.moved]);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const scrape = async () => (await request(t.server).get('/metrics').expect(200)).text;

  it('dependency_up says the database and the bus are reachable', async () => {
    const text = await scrape();
    expect(sample(text, 'dependency_up', { dependency: 'database' })).toBe(1);
    expect(sample(text, 'dependency_up', { dependency: 'bus' })).toBe(1);
  });

  it('certificates_by_lifetime_left counts the certificates we can renew by the share of lifetime left', async () => {
    const text = await scrape();
    expect(sample(text, 'certificates_by_lifetime_left', { left: 'over_third' })).toBe(1);
    expect(sample(text, 'certificates_by_lifetime_left', { left: 'under_third' })).toBe(1);
    expect(sample(text, 'certificates_by_lifetime_left', { left: 'expired' })).toBe(1);
  });

  it('monitor_scheduled_domains counts the domains in this node’s probe schedule, a deleted one gone', async () => {
    const scheduled = async () => sample(await scrape(), 'monitor_scheduled_domains');
    expect(await scheduled()).toBe(Object.keys(ids).length);
    const gone = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ hostname: 'gone.customer-b.com', originUrl: ORIGIN_URL })
      .expect(201);
    expect(await scheduled()).toBe(Object.keys(ids).length + 1);
    await request(t.server)
      .delete(`/v1/domains/${gone.body.domain.id as string}`)
      .set('authorization', `Bearer ${apiKey}`)
      .expect(200);
    expect(await scheduled()).toBe(Object.keys(ids).length);
  });

  it('monitor_lag_seconds is how long the most overdue domain has waited, beside the interval', async () => {
    expect(sample(await scrape(), 'monitor_interval_seconds')).toBe(300);
    await eventually(
      async () => sample(await scrape(), 'monitor_lag_seconds'),
      (lag) => lag !== undefined && lag < 5,
      {
        what: 'no domain overdue',
      },
    );
    // A shard whose watermark stopped two minutes ago (as when the node serving it died): one without
    // domains, so the monitor here, which writes only watermarks that moved, leaves it as it is.
    await t.db.query(
      `update shard_leases set monitored_until = now() - interval '120 seconds'
       where shard = (select s from generate_series(0, 4095) s
                      where not exists (select 1 from domains d where d.shard = s) limit 1)`,
    );
    const lag = sample(await scrape(), 'monitor_lag_seconds')!;
    expect(lag).toBeGreaterThanOrEqual(120);
    expect(lag).toBeLessThan(150);
  });
});

describe('certificates_time_to_https_seconds (standalone, Pebble)', () => {
  let stack: CertificateStack;
  beforeAll(async () => {
    stack = await startCertificateStack();
  });
  afterAll(() => stack?.close());

  it('observes the time from correct DNS to the first certificate of a domain', async () => {
    const { dns, t, auth, waitFor } = stack;
    const scrape = async () => (await request(t.server).get('/metrics').expect(200)).text;
    expect(sample(await scrape(), 'certificates_time_to_https_seconds_count')).toBe(0);
    dns.setRecords('tth.customer-a.com', [{ type: 'CNAME', data: CERTIFICATE_EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'tth.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    await waitFor(body.domain.id, (d) => d.certificate?.expiresAt != null);
    const text = await scrape();
    expect(sample(text, 'certificates_time_to_https_seconds_count')).toBe(1);
    const seconds = sample(text, 'certificates_time_to_https_seconds_sum')!;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(60);
    expect(sample(text, 'certificates_time_to_https_seconds_bucket', { le: '600' })).toBe(1);
  });
});

describe('actors_membership_changes_total and dependency_up{dependency="bus"} (two node processes)', () => {
  let db: TestDatabase;
  let nats: PrivateNats;
  afterAll(async () => {
    await stopAllProcesses();
    await nats?.stop();
    await db?.drop();
  });

  it('counts a node leaving and joining, by member; the bus gauge falls to 0 without NATS', async () => {
    [db, nats] = await Promise.all([createTestDatabase(), startPrivateNats()]);
    const env = { ...clusterProcessEnv(db.url), NATS_URL: nats.url };
    const n1 = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n1' });
    const n2 = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n2' });
    const [url1] = await Promise.all([waitForUrl(n1), waitForUrl(n2)]);
    const scrape = async () => (await fetch(`${url1}/metrics`)).text();
    // What n1 counted: member and change to the count.
    const changes = async () => {
      const text = await scrape();
      const count = (member: string, change: string) =>
        sample(text, 'actors_membership_changes_total', { member, change }) ?? 0;
      return { n1: [count('n1', 'joined'), count('n1', 'left')], n2: [count('n2', 'joined'), count('n2', 'left')] };
    };
    await eventually(changes, (c) => c.n2[0] >= 1, { timeoutMs: 30_000, what: 'n1 seeing n2 join' });

    n2.child.kill('SIGKILL');
    const seen = await eventually(changes, (c) => c.n2[1] === 1, { timeoutMs: 30_000, what: 'n1 seeing n2 leave' });
    expect(seen).toEqual({ n1: [1, 0], n2: [seen.n2[0], 1] });
    const bus = async () => sample(await scrape(), 'dependency_up', { dependency: 'bus' });
    expect(await bus()).toBe(1);

    await nats.kill();
    await eventually(bus, (up) => up === 0, { what: 'the bus gauge at 0 without NATS' });
  });
});

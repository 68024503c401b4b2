import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  WebhookReceiver,
  domainEnv,
  domainZones,
  eventually,
  startDnsServer,
  startTestApp,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

/** The value of one series in a Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    const found = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('/metrics of a process with every feature (standalone)', () => {
  let t: TestApp;
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let apiKey: string;
  let domainId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dns = await startDnsServer(domainZones());
    t = await startTestApp({
      env: {
        ...domainEnv(dns.address),
        OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
        // No ACME server reachable: orders fail as ca_unavailable and wait.
        ACME_DIRECTORY_URL: 'http://127.0.0.1:9/directory',
      },
    });
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'metrics', paymentMethod: 'pm_card_visa' })
      .expect(201);
    apiKey = ws.body.apiKey;
    await request(t.server)
      .post('/v1/webhook-endpoints')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ url: `${receiver.url}/hooks` })
      .expect(201);
    const created = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ hostname: 'shop.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    domainId = created.body.domain.id;
    // Before the first scrape: the expiry gauges cache their query for a minute.
    await t.db.query(
      `insert into certificates (domain_id, hostname, cert_pem, key_sealed, not_before, not_after)
       values ($1, 'shop.customer-a.com', 'pem', 'sealed', now() - interval '80 days', now() + interval '5 days')`,
      [domainId],
    );
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    await receiver?.close();
  });

  it('has a latency histogram per method, route template and status class', async () => {
    const auth = { authorization: `Bearer ${apiKey}` };
    await request(t.server).get(`/v1/domains/${domainId}`).set(auth).expect(200);
    await request(t.server).get(`/v1/domains/${domainId}`).set(auth).expect(200);
    await request(t.server).get('/v1/domains/dom_doesnotexist').set(auth).expect(404);
    await request(t.server).get('/no/such/path/12345').expect(404);
    const text = (await request(t.server).get('/metrics').expect(200)).text;
    const route = { method: 'GET', route: '/v1/domains/:id' };
    expect(sample(text, 'http_request_duration_seconds_count', { ...route, status_class: '2xx' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', { ...route, status_class: '4xx' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...route, status_class: '2xx', le: '+Inf' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/v1/domains' })).toBe(1);
    // Unknown paths share one label value: no label per URL.
    expect(sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(text).not.toContain('/no/such/path');
    expect(text).not.toContain(domainId);
  });

  it('has actor and shard gauges', async () => {
    const text = (await request(t.server).get('/metrics').expect(200)).text;
    expect(sample(text, 'actors_shards_owned')).toBe(4096);
    expect(sample(text, 'actors_cluster_members')).toBe(1);
    expect(sample(text, 'actors_resident')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'actors_commands_total', { kind: 'domain', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  });

  it('counts monitor probes by outcome', async () => {
    // The monitor's first probe of a new domain comes 10 s after it was connected.
    const text = await eventually(
      async () => (await request(t.server).get('/metrics').expect(200)).text,
      (metrics) => (sample(metrics, 'monitor_probes_total', { outcome: 'correct' }) ?? 0) >= 1,
      { timeoutMs: 25_000, everyMs: 250, what: 'a correct monitor probe in /metrics' },
    );
    expect(sample(text, 'monitor_probes_total', { outcome: 'correct' })).toBe(1);
    expect(sample(text, 'monitor_probe_seconds_count')).toBe(1);
  });

  it('counts webhook deliveries by outcome', async () => {
    await receiver.waitFor((r) => r.some((w) => w.body.type === 'domain.created'), 15_000, 'domain.created');
    const text = await eventually(
      async () => (await request(t.server).get('/metrics').expect(200)).text,
      (metrics) => (sample(metrics, 'webhook_deliveries_total', { outcome: 'delivered' }) ?? 0) >= 1,
      { timeoutMs: 5_000, what: 'a delivered webhook in /metrics' },
    );
    expect(sample(text, 'webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'webhook_events_relayed_total')).toBeGreaterThanOrEqual(1);
  });

  it('reports certificate expiries by window and the earliest, without a label per hostname', async () => {
    const day = 86_400;
    const text = (await request(t.server).get('/metrics').expect(200)).text;
    expect(sample(text, 'certificates_expiring', { window: '7d' })).toBe(1);
    expect(sample(text, 'certificates_expiring', { window: 'expired' })).toBe(0);
    expect(sample(text, 'certificates_expiring', { window: '30d' })).toBe(0);
    const earliest = sample(text, 'certificates_earliest_expiry_seconds', { scope: 'cluster' })!;
    expect(earliest).toBeGreaterThan(5 * day - 120);
    expect(earliest).toBeLessThanOrEqual(5 * day);
    expect(text).not.toMatch(/certificates_[a-z_]+\{[^}]*shop\.customer-a\.com/);
  });
});

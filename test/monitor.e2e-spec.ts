import {
  DnsRecord,
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  eventually,
  startDnsServer,
  startTestApp,
} from '@test/support';
import request from 'supertest';

describe('the monitor (standalone, 2 s interval)', () => {
  let dns: DnsServer;
  let t: TestApp;
  let auth: { authorization: string };

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), MONITOR_INTERVAL_SECONDS: '2' } });
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'm', paymentMethod: 'pm_card_visa' })
      .expect(201);
    auth = { authorization: `Bearer ${res.body.apiKey}` };
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const waitForMonitorStatus = (id: string, monitorStatus: string) =>
    eventually(
      async () => (await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain.monitorStatus,
      (status) => status === monitorStatus,
      { timeoutMs: 15_000, everyMs: 250, what: `monitorStatus ${monitorStatus}` },
    );

  /** Sets the hostname's records on the test DNS server, then connects it: the new domain as the 201 gives it. */
  const connectDomain = async (hostname: string, records: DnsRecord[]) => {
    dns.setRecords(hostname, records);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    return body.domain as { id: string; monitorStatus: string };
  };
  /** The same: the new domain's id. */
  const connect = async (hostname: string, records: DnsRecord[]) => (await connectDomain(hostname, records)).id;

  it('probes new domains by itself and follows DNS as the customer changes it', async () => {
    const created = await connectDomain('live.customer-m.com', []);
    const { id } = created;
    await waitForMonitorStatus(id, 'dns_not_resolving');
    dns.setRecords('live.customer-m.com', [{ type: 'CNAME', data: 'other-host.saas-test.net' }]);
    await waitForMonitorStatus(id, 'dns_incorrect');
    dns.setRecords('live.customer-m.com', [{ type: 'CNAME', data: EDGE_TARGET }]);
    await waitForMonitorStatus(id, 'pending_ssl');
    const domain = (await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain;
    expect(domain.status).toBe('pending');
    const events = await t.db.query<{ type: string; monitor: string }>(
      `select type, data->'domain'->>'monitorStatus' as monitor from outbox_events where aggregate_id = $1 order by created_at`,
      [id],
    );
    // The domain starts from the API's own DNS lookup: no second write for its first probe. (A lookup
    // slower than the create's 50 ms grace, on a busy machine, leaves it unknown until that probe.)
    const lookedUp = created.monitorStatus === 'dns_not_resolving';
    expect(lookedUp || created.monitorStatus === 'unknown').toBe(true);
    expect(events).toEqual([
      ...(lookedUp
        ? [{ type: 'domain.created', monitor: 'dns_not_resolving' }]
        : [
            { type: 'domain.created', monitor: 'unknown' },
            { type: 'domain.monitor_updated', monitor: 'dns_not_resolving' },
          ]),
      { type: 'domain.monitor_updated', monitor: 'dns_incorrect' },
      { type: 'domain.monitor_updated', monitor: 'pending_ssl' },
    ]);
  });

  it('writes nothing while nothing changes', async () => {
    const id = await connect('steady.customer-m.com', [{ type: 'CNAME', data: EDGE_TARGET }]);
    await waitForMonitorStatus(id, 'pending_ssl');
    // The create saw DNS right and ordered a certificate; its outcome (no CA here: deferred) is a write.
    await eventually(
      async () => (await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain.certificate,
      (certificate: { retryAt: string | null }) => certificate.retryAt !== null,
      { timeoutMs: 15_000, everyMs: 250, what: 'the certificate order’s outcome' },
    );
    const [before] = await t.db.query<{ version: string }>('select version from domains where id = $1', [id]);
    const probes = () => dns.queries.filter((q) => q.name === 'steady.customer-m.com' && q.type === 'CNAME').length;
    const probesBefore = probes();
    const probesAfter = await eventually(probes, (count) => count - probesBefore >= 2, {
      timeoutMs: 15_000,
      everyMs: 250,
      what: 'two more probes of the steady domain',
    });
    const [after] = await t.db.query<{ version: string }>('select version from domains where id = $1', [id]);
    expect(probesAfter - probesBefore).toBeGreaterThanOrEqual(2);
    expect(after.version).toBe(before.version);
  });

  it('schedules a domain when it is created and stops probing it once deleted', async () => {
    const id = await connect('gone.customer-m.com', [{ type: 'CNAME', data: EDGE_TARGET }]);
    await waitForMonitorStatus(id, 'pending_ssl');
    await request(t.server).delete(`/v1/domains/${id}`).set(auth).expect(200);
    // Whatever probe was under way when it was deleted has answered by now.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const probes = () => dns.queries.filter((q) => q.name === 'gone.customer-m.com' && q.type === 'CNAME').length;
    const probesAfterDelete = probes();
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(probes()).toBe(probesAfterDelete);
  });
});

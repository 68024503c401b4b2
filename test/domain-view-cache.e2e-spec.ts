import {
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

/**
 * The API keeps domain views in a cache (libs/domains DomainViewCache): it must never answer one
 * workspace with another's domain, must show a client its own write at once, and must follow the
 * changes the node makes (monitor, certificates) through their bus invalidations, long before
 * the cache's 30 s safety expiry.
 */
describe('domain view cache', () => {
  let dns: DnsServer;
  let t: TestApp;
  let key: string;
  let otherKey: string;

  const as = (k: string) => ({ authorization: `Bearer ${k}` });
  const get = (id: string, k = key) => request(t.server).get(`/v1/domains/${id}`).set(as(k));
  const create = (hostname: string) =>
    request(t.server).post('/v1/domains').set(as(key)).send({ hostname, originUrl: ORIGIN_URL }).expect(201);

  async function workspace(): Promise<string> {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'ws', paymentMethod: 'pm_card_visa' })
      .expect(201);
    return res.body.apiKey as string;
  }

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), MONITOR_INTERVAL_SECONDS: '2' } });
    [key, otherKey] = await Promise.all([workspace(), workspace()]);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('never answers another workspace from the cache, before or after the owner read it', async () => {
    const { body } = await create('cached.customer-a.com');
    const id = body.domain.id as string;
    await get(id, otherKey).expect(404); // before the owner's read: nothing of B's may be cached
    await get(id).expect(200);
    await get(id).expect(200); // now served from the cache
    const other = await get(id, otherKey).expect(404);
    expect(other.body).toMatchObject({ error: 'not_found' });
    expect(JSON.stringify(other.body)).not.toContain('cached.customer-a.com');
    await request(t.server).patch(`/v1/domains/${id}`).set(as(otherKey)).send({ keepHost: true }).expect(404);
    expect((await get(id).expect(200)).body.domain.keepHost).toBe(false);
  });

  it('shows a client its own writes on the very next read', async () => {
    const { body } = await create('ryw.customer-a.com');
    const id = body.domain.id as string;
    expect((await get(id).expect(200)).body.domain.metadata).toEqual({});
    for (let i = 0; i < 5; i++) {
      await request(t.server)
        .patch(`/v1/domains/${id}`)
        .set(as(key))
        .send({ metadata: { n: i } })
        .expect(200);
      expect((await get(id).expect(200)).body.domain.metadata).toEqual({ n: i });
    }
    dns.setRecords('ryw.customer-a.com', [{ type: 'CNAME', data: EDGE_TARGET }]);
    const checked = await request(t.server).post(`/v1/domains/${id}/check`).set(as(key)).expect(200);
    expect((await get(id).expect(200)).body.domain).toEqual(checked.body.domain);
    await request(t.server).delete(`/v1/domains/${id}`).set(as(key)).expect(200);
    await get(id).expect(404);
  });

  it('follows a change the monitor commits, through its invalidation, not the cache expiry', async () => {
    const { body } = await create('later.customer-a.com');
    const id = body.domain.id as string;
    // The create carries the api's DNS observation only if it answered within its 50 ms grace; on a
    // busy machine it may not, and the first probe (2 s interval) records it instead.
    const first = await eventually(
      async () => (await get(id).expect(200)).body.domain.monitorStatus as string,
      (seen) => seen !== 'unknown',
      { timeoutMs: 30_000, what: 'the first observed status' },
    );
    expect(first).toBe('dns_not_resolving');
    const rowStatus = async () =>
      (await t.db.query<{ status: string }>('select monitor_status as status from domains where id = $1', [id]))[0]
        .status;
    // The customer sets the CNAME; the monitor (2 s interval) sees it and commits pending_ssl (monitor status).
    dns.setRecords('later.customer-a.com', [{ type: 'CNAME', data: EDGE_TARGET }]);
    const committed = await eventually(
      async () => {
        await get(id).expect(200); // keeps the entry hot
        return rowStatus();
      },
      (status) => status !== 'dns_not_resolving',
      { timeoutMs: 60_000, what: 'the monitor to commit a status' },
    );
    expect(committed).toBe('pending_ssl');
    // Well within the 30 s expiry: only the bus invalidation can have refreshed the view.
    const status = await eventually(
      async () => (await get(id).expect(200)).body.domain.monitorStatus as string,
      (seen) => seen === committed,
      { timeoutMs: 5_000, everyMs: 50, what: `the view to show ${committed}` },
    );
    expect(status).toBe(committed);
  });
});

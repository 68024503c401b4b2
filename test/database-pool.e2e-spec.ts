import { MikroSqlExecutor, POOL_WAIT_MS } from '@app/persistence';
import {
  DnsServer,
  ORIGIN_URL,
  TestApp,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  eventually,
  startDnsServer,
  startTestApp,
} from '@test/support';
import request from 'supertest';

const POOL_SIZE = 10;
/** Longer than the pool wait, so a request that needs a connection gives up first. */
const HOLD_SECONDS = POOL_WAIT_MS / 1000 + 5;

/**
 * Every pooled connection busy (slow statements hold them): a request that needs the database
 * answers 503 `service_unavailable` with Retry-After once the pool's wait is over, instead of
 * hanging for knex's default minute or answering 500; what memory can answer (a cached domain read)
 * still answers; and once the connections are free, everything answers again.
 */
describe('the api with its database pool exhausted', () => {
  let dns: DnsServer;
  let t: TestApp;
  let auth: { authorization: string };

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    const { apiKey } = await createWorkspaceVia(t.server);
    auth = { authorization: `Bearer ${apiKey}` };
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('answers 503 with Retry-After after the pool wait, serves cached reads, and recovers', async () => {
    const created = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'pool.customer-p.com', originUrl: ORIGIN_URL })
      .expect(201);
    const id = created.body.domain.id as string;
    // Twice: the first read caches the view, the second is answered from memory.
    await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200);
    await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200);

    const db = t.app.get(MikroSqlExecutor);
    const holds = Array.from({ length: POOL_SIZE }, () => db.query(`select pg_sleep(${HOLD_SECONDS})`));
    await eventually(
      () =>
        t.db.query<{ n: string }>(`select count(*) as n from pg_stat_activity where query like 'select pg_sleep(%'`),
      (rows) => Number(rows[0].n) === POOL_SIZE,
      { timeoutMs: 10_000, what: `${POOL_SIZE} pooled connections held` },
    );

    const started = Date.now();
    const list = await request(t.server).get('/v1/domains').set(auth);
    const waitedMs = Date.now() - started;
    expect(list.status).toBe(503);
    expect(list.body).toEqual({
      error: 'service_unavailable',
      message: expect.stringMatching(/database is unavailable or busy/),
      details: { retryAfter: 1 },
    });
    expect(list.headers['retry-after']).toBe('1');
    expect(waitedMs).toBeGreaterThanOrEqual(POOL_WAIT_MS - 500);
    expect(waitedMs).toBeLessThan(POOL_WAIT_MS + 4_000);

    // The cached view needs no connection.
    const cached = await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200);
    expect(cached.body.domain.hostname).toBe('pool.customer-p.com');

    await Promise.all(holds);
    const after = await eventually(
      () => request(t.server).get('/v1/domains').set(auth),
      (res) => res.status === 200,
      { timeoutMs: 10_000, what: 'the list answering again' },
    );
    expect(after.body.domains.map((d: { id: string }) => d.id)).toEqual([id]);
  });
});

import { DomainReadFastPath } from '@app/domains';
import { CLOCK, Clock } from '@app/kernel';
import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  startDnsServer,
  stableHeaders,
  startTestApp,
  workspaceWithKey,
} from '@test/support';
import request, { Response } from 'supertest';

const MINUTE = 60_000;

/**
 * `GET /v1/domains/{id}` is answered before Nest's pipeline when the key, a rate-limit reserve and
 * the view are all in memory (libs/domains DomainReadFastPath). It must answer exactly what the
 * controller answers, count against the same limits, and fall through for everything it cannot
 * decide in memory (the guard and controller then answer, errors included).
 */
describe('domain read fast path', () => {
  let dns: DnsServer;
  let t: TestApp;
  let fastPath: DomainReadFastPath;
  let now = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const as = (k: string) => ({ authorization: `Bearer ${k}` });

  const workspace = () => workspaceWithKey(t.server);
  async function domain(key: string, hostname: string): Promise<string> {
    const res = await request(t.server).post('/v1/domains').set(as(key)).send({ hostname, originUrl: ORIGIN_URL });
    expect(res.status).toBe(201);
    return res.body.domain.id as string;
  }
  /** GET, and whether the fast path answered it. */
  async function get(id: string, key: string): Promise<{ res: Response; fast: boolean }> {
    const before = fastPath.hits;
    const res = await request(t.server).get(`/v1/domains/${id}`).set(as(key));
    return { res, fast: fastPath.hits === before + 1 };
  }

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), RATE_LIMITS: 'on' } });
    jest.spyOn(t.app.get<Clock>(CLOCK), 'now').mockImplementation(() => now);
    fastPath = t.app.get(DomainReadFastPath);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });
  beforeEach(() => {
    now += MINUTE; // a fresh rate-limit window for each test
  });

  it('answers what the controller answers: status, headers and body', async () => {
    const { key } = await workspace();
    const id = await domain(key, 'same.customer-a.com');
    now += MINUTE;
    const slow = await get(id, key); // the first request of the window asks PostgreSQL for a reserve
    const fast = await get(id, key);
    expect([slow.fast, fast.fast]).toEqual([false, true]);
    expect(fast.res.status).toBe(200);
    expect(fast.res.text).toBe(slow.res.text);
    expect(stableHeaders(fast.res)).toEqual(stableHeaders(slow.res));
    expect(Number(fast.res.headers['x-ratelimit-remaining'])).toBe(
      Number(slow.res.headers['x-ratelimit-remaining']) - 1,
    );
    expect(fast.res.headers['x-service-request-id']).toMatch(/\S/);
    expect(fast.res.headers['x-service-request-id']).not.toBe(slow.res.headers['x-service-request-id']);
  });

  it('counts against the same limit: 60 a minute with every remaining count once, then 429 from the guard', async () => {
    const { key } = await workspace();
    const id = await domain(key, 'counted.customer-a.com');
    now += MINUTE;
    const answers: { status: number; remaining: number; fast: boolean }[] = [];
    for (let i = 0; i < 62; i++) {
      const { res, fast } = await get(id, key);
      answers.push({ status: res.status, remaining: Number(res.headers['x-ratelimit-remaining']), fast });
    }
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(60);
    expect(ok.map((a) => a.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    expect(ok.filter((a) => a.fast).length).toBeGreaterThan(45); // most from the reserve in memory
    expect(answers.slice(60).map((a) => [a.status, a.fast])).toEqual([
      [429, false],
      [429, false],
    ]);
  });

  it('never answers another workspace, and falls through to its 404', async () => {
    const owner = await workspace();
    const other = await workspace();
    const id = await domain(owner.key, 'mine.customer-a.com');
    await get(id, owner.key);
    expect((await get(id, owner.key)).fast).toBe(true);
    await get(id, other.key); // warms the other key
    const { res, fast } = await get(id, other.key);
    expect(fast).toBe(false);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('mine.customer-a.com');
  });

  it('stops answering for a revoked key at once, and leaves unknown keys to the guard', async () => {
    const { key, keyId } = await workspace();
    const id = await domain(key, 'revoked.customer-a.com');
    await get(id, key);
    expect((await get(id, key)).fast).toBe(true);
    await request(t.server).delete(`/admin/api-keys/${keyId}`).set(admin).expect(200);
    const after = await get(id, key);
    expect([after.res.status, after.fast]).toEqual([401, false]);
    const unknown = await get(id, `${key.slice(0, -4)}zzzz`);
    expect([unknown.res.status, unknown.fast]).toEqual([401, false]);
  });

  it('leaves connect-session tokens to the guard, which scopes them to their domain', async () => {
    const { key } = await workspace();
    const id = await domain(key, 'session.customer-a.com');
    const otherId = await domain(key, 'session-other.customer-a.com');
    const minted = await request(t.server).post(`/v1/domains/${id}/connect-session`).set(as(key)).send({}).expect(200);
    const token = minted.body.connectSession.token as string;
    const own = await get(id, token);
    expect([own.res.status, own.fast]).toEqual([200, false]);
    const foreign = await get(otherId, token);
    expect([foreign.res.status, foreign.fast]).toEqual([403, false]);
  });

  it('shows a write of this replica on the very next read, and then from the fast path', async () => {
    const { key } = await workspace();
    const id = await domain(key, 'written.customer-a.com');
    await get(id, key);
    await request(t.server)
      .patch(`/v1/domains/${id}`)
      .set(as(key))
      .send({ metadata: { plan: 'pro' } })
      .expect(200);
    // The write's own edge.invalidate may drop the entry it put in: the next read may then ask the database once.
    expect((await get(id, key)).res.body.domain.metadata).toEqual({ plan: 'pro' });
    const { res, fast } = await get(id, key);
    expect(fast).toBe(true);
    expect(res.body.domain.metadata).toEqual({ plan: 'pro' });
  });
});

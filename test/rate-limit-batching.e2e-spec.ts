import { CLOCK, Clock } from '@app/kernel';
import {
  TEST_ADMIN_TOKEN,
  TestApp,
  TestDatabase,
  createTestDatabase,
  sleep,
  startProcess,
  startTestApp,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
  clusterProcessEnv,
} from '@test/support';
import request from 'supertest';

const MINUTE = 60_000;

/** The limiter counts concurrent requests in shared statements: the counts must stay exact. */
describe('rate limits under concurrency (group-committed counting)', () => {
  let t: TestApp;
  const now = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMITS: 'on', TRUSTED_PROXIES: '127.0.0.1/32' } });
    jest.spyOn(t.app.get<Clock>(CLOCK), 'now').mockImplementation(() => now);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets exactly 60 of 90 parallel calls of one key through, each with its own remaining count', async () => {
    const created = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'burst' })
      .expect(201);
    const auth = { authorization: `Bearer ${created.body.apiKey}` };
    const results = await Promise.all(
      Array.from({ length: 90 }, () => request(t.server).get('/v1/workspace').set(auth)),
    );
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(60);
    expect(limited).toHaveLength(30);
    const remaining = ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const r of limited) expect(r.body.details).toEqual({ action: 'api', retryAfter: 60 });
  });

  it('keeps parallel clients of the keyless tools apart', async () => {
    const call = (ip: string) =>
      request(t.server).get('/v1/tools/dns-lookup').query({ hostname: 'x' }).set('x-forwarded-for', ip);
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => call(i % 2 ? '192.0.2.1' : '192.0.2.2')));
    expect(results.filter((r) => r.status === 400)).toHaveLength(60); // 30 each, refused input but counted
    expect(results.filter((r) => r.status === 429)).toHaveLength(20);
  });
});

describe('one budget across API replicas under parallel load (dist/apps/api)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ empty: true }); // the replicas migrate it: the first alone
  });
  afterAll(async () => {
    await stopAllProcesses();
    await db?.drop();
  });

  it('lets exactly 60 of 120 parallel calls of one key through two replicas', async () => {
    const env = {
      ...clusterProcessEnv(db.url, uniqueSubjectPrefix()),
    };
    const a = startProcess('dist/apps/api/src/main.js', env);
    const urlA = await waitForUrl(a); // the first replica runs the migrations alone
    const b = startProcess('dist/apps/api/src/main.js', env);
    const urlB = await waitForUrl(b);
    const created = await fetch(`${urlA}/admin/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'replicas' }),
    });
    const { apiKey } = (await created.json()) as { apiKey: string };
    const msLeft = MINUTE - (Date.now() % MINUTE);
    // Time must pass: the limit counts per wall-clock minute, and all 120 calls must land in one window.
    if (msLeft < 15_000) await sleep(msLeft + 200);
    const statuses = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const res = await fetch(`${i % 2 ? urlA : urlB}/v1/workspace`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    await Promise.all([a.stop(), b.stop()]);
    // Two api starts in sequence and up to 15 s for a fresh minute: over a minute on a busy machine.
  }, 180_000);
});

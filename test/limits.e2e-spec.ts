import { CLOCK, Clock } from '@app/kernel';
import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import request from 'supertest';

const HOUR = 3_600_000;

describe('rate limits and idempotency (injected clock)', () => {
  let dns: DnsServer;
  let t: TestApp;
  let now = Math.floor(Date.now() / HOUR) * HOUR + HOUR;

  async function key(): Promise<string> {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'limits', paymentMethod: 'pm_card_visa' })
      .expect(201);
    return res.body.apiKey as string;
  }

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), RATE_LIMITS: 'on' } });
    jest.spyOn(t.app.get<Clock>(CLOCK), 'now').mockImplementation(() => now);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('allows 60 calls a minute per key, then 429 with Retry-After and details, and resets', async () => {
    const auth = { authorization: `Bearer ${await key()}` };
    for (let i = 1; i <= 60; i++) {
      const res = await request(t.server).get('/v1/workspace').set(auth).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(res.headers['x-ratelimit-reset']).toBe('60');
    }
    now += 15_000;
    const limited = await request(t.server).get('/v1/workspace').set(auth).expect(429);
    expect(limited.headers['retry-after']).toBe('45');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.body).toEqual({
      error: 'rate_limited',
      message: 'Rate limit for api exceeded (60 per minute): retry in 45 seconds',
      details: { action: 'api', retryAfter: 45 },
    });
    // Another key has its own budget.
    await request(t.server)
      .get('/v1/workspace')
      .set('authorization', `Bearer ${await key()}`)
      .expect(200);
    now += 45_000;
    await request(t.server).get('/v1/workspace').set(auth).expect(200);
    now = Math.floor(now / HOUR) * HOUR + HOUR;
  });

  it('allows 100 domain creations an hour per key, counting refused ones too', async () => {
    const auth = { authorization: `Bearer ${await key()}` };
    for (let i = 0; i < 100; i++) {
      if (i === 50) now += 60_000; // stay under the per-minute limit
      await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .send({ hostname: 'localhost', originUrl: ORIGIN_URL })
        .expect(400);
    }
    now += 60_000;
    const res = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'x.customer-a.com', originUrl: ORIGIN_URL })
      .expect(429);
    expect(res.body.details).toEqual({ action: 'domains.create', retryAfter: 3480 });
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    await request(t.server).get('/v1/domains').set(auth).expect(200);
    now = Math.floor(now / HOUR) * HOUR + HOUR;
  });

  it('never counts unauthenticated calls against a key, nor limits the admin API', async () => {
    for (let i = 0; i < 70; i++) await request(t.server).get('/v1/workspace').expect(401);
    for (let i = 0; i < 70; i++) {
      await request(t.server).get('/admin/cluster').set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`).expect(200);
    }
  });

  describe('idempotency', () => {
    let auth: { authorization: string };
    beforeAll(async () => {
      auth = { authorization: `Bearer ${await key()}` };
    });

    const create = (hostname: string, idem?: string) => {
      const req = request(t.server).post('/v1/domains').set(auth);
      if (idem) req.set('idempotency-key', idem);
      return req.send({ hostname, originUrl: ORIGIN_URL });
    };

    it('replays the first response and does the work once', async () => {
      const first = await create('idem1.customer-a.com', 'key-1').expect(201);
      expect(first.headers['idempotent-replay']).toBeUndefined();
      const second = await create('idem1.customer-a.com', 'key-1').expect(201);
      expect(second.headers['idempotent-replay']).toBe('true');
      expect(second.body).toEqual(first.body);
      const list = await request(t.server)
        .get('/v1/domains')
        .query({ hostname: 'idem1.customer-a.com' })
        .set(auth)
        .expect(200);
      expect(list.body.domains).toHaveLength(1);
    });

    it('replays refusals too, but not validation failures', async () => {
      await create('idem1.customer-a.com', 'key-conflict').expect(409);
      const again = await create('idem1.customer-a.com', 'key-conflict').expect(409);
      expect(again.headers['idempotent-replay']).toBe('true');
      await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .set('idempotency-key', 'key-2')
        .send({ hostname: 'idem2.customer-a.com' })
        .expect(400);
      await create('idem2.customer-a.com', 'key-2').expect(201);
    });

    it('answers 422 when the key comes back with another body', async () => {
      await create('idem3.customer-a.com', 'key-3').expect(201);
      const res = await create('idem4.customer-a.com', 'key-3').expect(422);
      expect(res.body.error).toBe('idempotency_key_reused');
    });

    it('runs parallel twins once: one creation, the rest in progress or replayed', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => create('idem5.customer-a.com', 'key-5')));
      const created = results.filter((r) => r.status === 201 && !r.headers['idempotent-replay']);
      expect(created).toHaveLength(1);
      for (const r of results) {
        if (r.status === 409) expect(r.body.error).toBe('idempotency_in_progress');
        else expect(r.status).toBe(201);
      }
      const list = await request(t.server)
        .get('/v1/domains')
        .query({ hostname: 'idem5.customer-a.com' })
        .set(auth)
        .expect(200);
      expect(list.body.domains).toHaveLength(1);
    });

    it('answers a retry whose first answer was lost (its key freed after a 5xx) with the domain it made', async () => {
      const first = await create('idem8.customer-a.com', 'key-lost').expect(201);
      // What an outage leaves behind: the actor created the domain, the api answered 5xx and freed the key.
      const forget = () => t.db.query("delete from idempotency_records where key = 'key-lost'");
      await forget();
      const retry = await create('idem8.customer-a.com', 'key-lost').expect(201);
      expect(retry.headers['idempotent-replay']).toBeUndefined();
      expect(retry.body.domain.id).toBe(first.body.domain.id);
      const events = await t.db.query('select 1 from outbox_events where aggregate_id = $1 and type = $2', [
        first.body.domain.id,
        'domain.created',
      ]);
      expect(events).toHaveLength(1);
      await forget();
      const other = await create('idem9.customer-a.com', 'key-lost').expect(422);
      expect(other.body).toMatchObject({
        error: 'idempotency_key_reused',
        details: { hostname: 'idem8.customer-a.com' },
      });
      await request(t.server).delete(`/v1/domains/${first.body.domain.id}`).set(auth).expect(200);
      await forget();
      await create('idem8.customer-a.com', 'key-lost').expect(409);
    });

    it('replays a webhook endpoint creation with its once-shown secret, kept sealed at rest', async () => {
      const post = () =>
        request(t.server)
          .post('/v1/webhook-endpoints')
          .set(auth)
          .set('idempotency-key', 'key-webhook')
          .send({ url: 'https://hooks.example.com/in', events: [] })
          .expect(201);
      const first = await post();
      const second = await post();
      expect(second.headers['idempotent-replay']).toBe('true');
      expect(second.body.endpoint).toEqual(first.body.endpoint);
      expect(first.body.endpoint.secret).toMatch(/^whsec_/);
      const stored = await t.db.query<{ body: string }>(
        "select response_body::text as body from idempotency_records where key = 'key-webhook'",
      );
      expect(stored[0].body).not.toContain(first.body.endpoint.secret);
      const list = await request(t.server).get('/v1/webhook-endpoints').set(auth).expect(200);
      expect(list.body.endpoints).toHaveLength(1);
    });

    it('scopes keys by workspace and refuses malformed keys', async () => {
      const other = { authorization: `Bearer ${await key()}` };
      await request(t.server)
        .post('/v1/domains')
        .set(other)
        .set('idempotency-key', 'key-1')
        .send({ hostname: 'idem6.customer-a.com', originUrl: ORIGIN_URL })
        .expect(201);
      const bad = await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .set('idempotency-key', 'has space')
        .send({ hostname: 'idem7.customer-a.com', originUrl: ORIGIN_URL })
        .expect(400);
      expect(bad.body.message).toMatch(/Idempotency-Key/);
    });
  });
});

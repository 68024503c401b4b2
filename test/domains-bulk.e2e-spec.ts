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

describe('POST /v1/domains/bulk', () => {
  let dns: DnsServer;
  let t: TestApp;
  let auth: { authorization: string };

  async function key(card = true): Promise<string> {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send(card ? { name: 'bulk', paymentMethod: 'pm_card_visa' } : { name: 'bulk' })
      .expect(201);
    return res.body.apiKey as string;
  }

  const bulk = (body: object, headers = auth) => request(t.server).post('/v1/domains/bulk').set(headers).send(body);

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    auth = { authorization: `Bearer ${await key()}` };
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('answers 200 with one result per item, in input order, failures beside successes', async () => {
    await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'taken.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const res = await bulk({
      domains: [
        { hostname: 'b1.customer-a.com', originUrl: ORIGIN_URL, metadata: { n: 1 } },
        { hostname: 'localhost', originUrl: ORIGIN_URL },
        { hostname: 'B1.customer-a.com.', originUrl: ORIGIN_URL },
        { hostname: 'taken.customer-a.com', originUrl: ORIGIN_URL },
        { hostname: 'b2.customer-a.com' },
        'b3.customer-a.com',
        { hostname: 'b4.customer-a.com', originUrl: 'https://internal.saas-test.net' },
        { hostname: 'shop.caa-blocked.com', originUrl: ORIGIN_URL, mode: 'redirect' },
        { hostname: 'b5.customer-a.com', originUrl: ORIGIN_URL, unknownField: true },
      ],
    }).expect(200);
    const results = res.body.results as {
      index: number;
      status: number;
      domain?: { hostname: string; id: string; metadata: unknown; mode: string };
      warnings?: { code: string }[];
      error?: { error: string; message: string; details?: Record<string, unknown> };
    }[];
    expect(results.map((r) => [r.index, r.status, r.error?.error])).toEqual([
      [0, 201, undefined],
      [1, 400, 'bad_request'],
      [2, 409, 'conflict'],
      [3, 409, 'conflict'],
      [4, 400, 'bad_request'],
      [5, 400, 'bad_request'],
      [6, 400, 'preflight_failed'],
      [7, 201, undefined],
      [8, 400, 'bad_request'],
    ]);
    expect(res.body).toMatchObject({ created: 2, failed: 7 });
    expect(results[0].domain).toMatchObject({ hostname: 'b1.customer-a.com', metadata: { n: 1 } });
    expect(results[0].warnings).toBeUndefined();
    expect(results[0].error).toBeUndefined();
    expect(results[1].error?.message).toMatch(/^hostname: /);
    expect(results[1].domain).toBeUndefined();
    expect(results[2].error).toMatchObject({ details: { hostname: 'b1.customer-a.com', duplicateOf: 0 } });
    expect(results[3].error).toMatchObject({ message: 'taken.customer-a.com is already connected' });
    expect(results[4].error?.details?.fields).toEqual([{ field: 'originUrl', problems: expect.any(Array) }]);
    expect(results[5].error?.message).toMatch(/JSON object/);
    expect(results[7].domain).toMatchObject({ hostname: 'shop.caa-blocked.com', mode: 'redirect' });
    expect(results[7].warnings?.[0].code).toMatch(/^caa_blocks_/);
    expect(results[8].error?.details?.fields).toEqual([{ field: 'unknownField', problems: expect.any(Array) }]);
    // What was created is really there, once.
    for (const hostname of ['b1.customer-a.com', 'shop.caa-blocked.com']) {
      const list = await request(t.server).get('/v1/domains').query({ hostname }).set(auth).expect(200);
      expect(list.body.domains).toHaveLength(1);
    }
    const stray = await request(t.server).get('/v1/domains').query({ hostname: 'b2.customer-a.com' }).set(auth);
    expect(stray.body.domains).toHaveLength(0);
  });

  it('creates 100 domains in one call', async () => {
    const domains = Array.from({ length: 100 }, (_, i) => ({
      hostname: `many${i}.customer-a.com`,
      originUrl: ORIGIN_URL,
    }));
    const started = Date.now();
    const res = await bulk({ domains }).expect(200);
    const elapsed = Date.now() - started;
    expect(res.body.created).toBe(100);
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual(domains.map((_, i) => i));
    expect(res.body.results.map((r: { domain: { hostname: string } }) => r.domain.hostname)).toEqual(
      domains.map((d) => d.hostname),
    );
    const rows = await t.db.query("select count(*)::int as n from domains where hostname like 'many%'");
    expect(rows[0].n).toBe(100);
    process.stdout.write(`bulk create of 100 domains took ${elapsed} ms\n`);
  });

  it.each([
    [
      'more than 100 items',
      { domains: Array.from({ length: 101 }, (_, i) => ({ hostname: `x${i}.customer-a.com`, originUrl: ORIGIN_URL })) },
      /no more than 100/,
    ],
    ['an empty list', { domains: [] }, /at least 1/],
    ['no list', {}, /domains/],
    ['a list that is not an array', { domains: { hostname: 'x.customer-a.com' } }, /array/],
    [
      'unknown top-level fields',
      { domains: [{ hostname: 'y.customer-a.com', originUrl: ORIGIN_URL }], dryRun: true },
      /dryRun/,
    ],
  ])('refuses %s with 400 bad_request and creates nothing', async (_, body, message) => {
    const res = await bulk(body).expect(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toMatch(message);
    const rows = await t.db.query("select 1 from domains where hostname in ('x0.customer-a.com', 'y.customer-a.com')");
    expect(rows).toHaveLength(0);
  });

  it('answers 402 per item for a workspace without a card', async () => {
    const res = await bulk(
      { domains: [{ hostname: 'nocard.customer-a.com', originUrl: ORIGIN_URL }] },
      { authorization: `Bearer ${await key(false)}` },
    ).expect(200);
    expect(res.body.results).toEqual([
      { index: 0, status: 402, error: expect.objectContaining({ error: 'billing_required' }) },
    ]);
  });

  it('replays with the same Idempotency-Key and does the work once', async () => {
    const body = {
      domains: [
        { hostname: 'idem-b1.customer-a.com', originUrl: ORIGIN_URL },
        { hostname: 'localhost', originUrl: ORIGIN_URL },
      ],
    };
    const first = await bulk(body).set('idempotency-key', 'bulk-1').expect(200);
    expect(first.body.created).toBe(1);
    const again = await bulk(body).set('idempotency-key', 'bulk-1').expect(200);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await t.db.query("select id from domains where hostname = 'idem-b1.customer-a.com'");
    expect(rows).toHaveLength(1);
    // Without the key, the same batch runs again: the hostname is now taken.
    const fresh = await bulk(body).expect(200);
    expect(fresh.body.results[0]).toMatchObject({ status: 409, error: { error: 'conflict' } });
    await bulk({ domains: [{ hostname: 'idem-b2.customer-a.com', originUrl: ORIGIN_URL }] })
      .set('idempotency-key', 'bulk-1')
      .expect(422);
  });
});

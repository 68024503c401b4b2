import { REGISTRANT, TestApp, eventually, purchaseWorkspace, sleep, startTestApp, uniqueDomain } from '@test/support';
import { SANDBOX_DEFAULT_NAMESERVERS } from '@app/registrar';
import request from 'supertest';

/** Input rules, lists, registrar DNS, nameservers and renewals of /v1/domain-purchases (sandbox adapters). */
describe('/v1/domain-purchases: API', () => {
  let t: TestApp;
  let key: string;
  let other: string;
  const auth = (k = key) => ({ authorization: `Bearer ${k}` });
  const buy = (body: Record<string, unknown>, k = key) =>
    request(t.server).post('/v1/domain-purchases').set(auth(k)).send(body);
  const bought = async (body: Record<string, unknown> = {}, k = key) =>
    (await buy({ hostname: uniqueDomain(), registrant: REGISTRANT, ...body }, k).expect(201)).body.purchase;
  const fieldsOf = (res: request.Response) => (res.body.details?.fields ?? []).map((f: { field: string }) => f.field);

  beforeAll(async () => {
    // Auto-renew: everything expiring within 366 days is due, swept every second.
    t = await startTestApp({ env: { PURCHASE_RENEW_DAYS: '366', PURCHASE_SWEEP_SECONDS: '1' } });
    ({ apiKey: key } = await purchaseWorkspace(t.server, 'pm_card_visa'));
    ({ apiKey: other } = await purchaseWorkspace(t.server, 'pm_card_visa'));
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('input rules (400 bad_request, nothing charged)', () => {
    const valid = () => ({ hostname: uniqueDomain(), registrant: { ...REGISTRANT } });
    it.each<[string, (b: any) => void, string]>([
      ['hostname missing', (b) => delete b.hostname, 'hostname'],
      ['hostname of 2 characters', (b) => (b.hostname = 'ab'), 'hostname'],
      ['hostname of 254 characters', (b) => (b.hostname = `${'a'.repeat(250)}.com`), 'hostname'],
      ['a subdomain', (b) => (b.hostname = 'shop.example.com'), 'hostname'],
      ['a public suffix', (b) => (b.hostname = 'co.uk'), 'hostname'],
      ['an IP address', (b) => (b.hostname = '10.0.0.1'), 'hostname'],
      ['years 0', (b) => (b.years = 0), 'years'],
      ['years 11', (b) => (b.years = 11), 'years'],
      ['years 1.5', (b) => (b.years = 1.5), 'years'],
      ['years as a string', (b) => (b.years = '2'), 'years'],
      ['registrant missing', (b) => delete b.registrant, 'registrant'],
      ['registrant.firstName missing', (b) => delete b.registrant.firstName, 'registrant.firstName'],
      ['registrant.lastName empty', (b) => (b.registrant.lastName = '  '), 'registrant.lastName'],
      ['registrant.address1 missing', (b) => delete b.registrant.address1, 'registrant.address1'],
      ['registrant.city missing', (b) => delete b.registrant.city, 'registrant.city'],
      ['registrant.stateOrProvince missing', (b) => delete b.registrant.stateOrProvince, 'registrant.stateOrProvince'],
      ['registrant.postalCode missing', (b) => delete b.registrant.postalCode, 'registrant.postalCode'],
      ['registrant.email invalid', (b) => (b.registrant.email = 'ada-at-example'), 'registrant.email'],
      ['registrant.phone without the dot', (b) => (b.registrant.phone = '+15555555555'), 'registrant.phone'],
      ['registrant.phone without +', (b) => (b.registrant.phone = '1.5555555555'), 'registrant.phone'],
      ['registrant.country unknown', (b) => (b.registrant.country = 'XX'), 'registrant.country'],
      ['registrant.country lowercase', (b) => (b.registrant.country = 'gb'), 'registrant.country'],
      ['registrant.country alpha-3', (b) => (b.registrant.country = 'GBR'), 'registrant.country'],
      ['an unknown registrant field', (b) => (b.registrant.nickname = 'x'), 'registrant.nickname'],
      ['customerReference of 257', (b) => (b.customerReference = 'r'.repeat(257)), 'customerReference'],
      ['maxTotalCents 0', (b) => (b.maxTotalCents = 0), 'maxTotalCents'],
      ['enableWhoisPrivacy not boolean', (b) => (b.enableWhoisPrivacy = 'yes'), 'enableWhoisPrivacy'],
      ['autoRenew not boolean', (b) => (b.autoRenew = 1), 'autoRenew'],
      ['autoConnect without originUrl', (b) => (b.autoConnect = {}), 'autoConnect.originUrl'],
      [
        'autoConnect.originUrl http',
        (b) => (b.autoConnect = { originUrl: 'http://example.com' }),
        'autoConnect.originUrl',
      ],
      ['an unknown field', (b) => (b.coupon = 'FREE'), 'coupon'],
    ])('%s', async (_name, mutate, field) => {
      const body = valid();
      mutate(body);
      const res = await buy(body);
      expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
      expect(fieldsOf(res)).toContain(field);
    });

    it('accepts the limits themselves: 3 characters, 10 years, a 256-character reference', async () => {
      await buy({ hostname: 'x.co', registrant: REGISTRANT, years: 10, customerReference: 'r'.repeat(256) }).expect(
        201,
      );
      expect(await t.db.query("select 1 from sandbox_charges where metadata->>'hostname' = 'x.co'")).toHaveLength(1);
    });
  });

  describe('list', () => {
    let ids: string[];
    beforeAll(async () => {
      const { apiKey } = await purchaseWorkspace(t.server, 'pm_card_visa');
      const declined = await purchaseWorkspace(t.server, 'pm_card_chargeDeclined');
      ids = [];
      for (let i = 0; i < 5; i++) ids.push((await bought({ customerReference: i % 2 ? 'odd' : 'even' }, apiKey)).id);
      await buy({ hostname: uniqueDomain(), registrant: REGISTRANT }, declined.apiKey).expect(402);
      key = apiKey;
    });

    const list = (query: Record<string, unknown> | string) =>
      request(t.server).get('/v1/domain-purchases').query(query).set(auth());

    it('pages newest first with an opaque cursor', async () => {
      const first = await list({ limit: 2 }).expect(200);
      expect(first.body.purchases.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
      const second = await list({ limit: 2, cursor: first.body.nextCursor }).expect(200);
      expect(second.body.purchases.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
      const third = await list({ limit: 2, cursor: second.body.nextCursor }).expect(200);
      expect(third.body.purchases.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
      expect(third.body.nextCursor).toBeNull();
      expect((await list({}).expect(200)).body.purchases).toHaveLength(5);
    });

    it('filters by hostname, status (repeatable), customerReference and inclusive dates', async () => {
      const one = (await request(t.server).get(`/v1/domain-purchases/${ids[2]}`).set(auth())).body.purchase;
      expect((await list({ hostname: one.hostname.toUpperCase() })).body.purchases.map((p: any) => p.id)).toEqual([
        ids[2],
      ]);
      expect((await list({ customerReference: 'odd' })).body.purchases).toHaveLength(2);
      expect((await list('status=completed&status=refunded')).body.purchases).toHaveLength(5);
      expect((await list({ status: 'failed' })).body.purchases).toHaveLength(0);
      const today = one.createdAt.slice(0, 10);
      expect((await list({ createdAfter: today, createdBefore: today })).body.purchases).toHaveLength(5);
      expect((await list({ createdAfter: one.createdAt })).body.purchases.map((p: any) => p.id)).toEqual([
        ids[4],
        ids[3],
        ids[2],
      ]);
      expect((await list({ createdBefore: one.createdAt })).body.purchases.map((p: any) => p.id)).toEqual([
        ids[2],
        ids[1],
        ids[0],
      ]);
      expect((await list({ createdBefore: '2020-01-01' })).body.purchases).toHaveLength(0);
    });

    it.each([
      [{ limit: 0 }],
      [{ limit: 101 }],
      [{ status: 'done' }],
      [{ createdAfter: 'yesterday' }],
      [{ cursor: 'garbage' }],
      [{ customerReference: 'r'.repeat(257) }],
    ])('refuses %j', async (query) => {
      expect((await list(query)).status).toBe(400);
    });

    it('shows another workspace nothing, and 404 for its ids', async () => {
      const res = await request(t.server).get('/v1/domain-purchases').set(auth(other)).expect(200);
      expect(res.body.purchases.map((p: any) => p.id)).not.toContain(ids[0]);
      await request(t.server).get(`/v1/domain-purchases/${ids[0]}`).set(auth(other)).expect(404);
      await request(t.server)
        .patch(`/v1/domain-purchases/${ids[0]}`)
        .set(auth(other))
        .send({ autoRenew: true })
        .expect(404);
      await request(t.server).get('/v1/domain-purchases/pur_missing').set(auth()).expect(404);
      await request(t.server).get(`/v1/domain-purchases/${ids[0]}/dns`).set(auth(other)).expect(404);
    });
  });

  describe('details, registrar DNS and nameservers', () => {
    let p: { id: string; hostname: string };
    beforeAll(async () => {
      p = await bought();
    });
    const dns = () => request(t.server).get(`/v1/domain-purchases/${p.id}/dns`).set(auth());
    const putDns = (records: unknown) =>
      request(t.server).put(`/v1/domain-purchases/${p.id}/dns`).set(auth()).send({ records });
    const putNs = (nameservers: unknown) =>
      request(t.server).put(`/v1/domain-purchases/${p.id}/nameservers`).set(auth()).send({ nameservers });

    it('details carry the registrar live view', async () => {
      const res = await request(t.server).get(`/v1/domain-purchases/${p.id}/details`).set(auth()).expect(200);
      expect(res.body.purchase.id).toBe(p.id);
      expect(res.body.live).toMatchObject({ expiresAt: expect.any(String), usingRegistrarDns: true });
    });

    it('PUT replaces the record set exactly; GET shows it', async () => {
      const records = [
        { type: 'A', name: '@', value: '203.0.113.7', ttl: 300 },
        { type: 'MX', name: '@', value: 'mx1.mail.example', priority: 10, ttl: 3600 },
        { type: 'TXT', name: '@', value: 'v=spf1 include:mail.example -all' },
        { type: 'URL301', name: 'go', value: 'https://example.org/landing' },
      ];
      const res = await putDns(records).expect(200);
      const expected = records.map((r) => ({ ttl: 1800, ...r }));
      expect(res.body).toEqual({ hostname: p.hostname, records: expected });
      expect((await dns().expect(200)).body).toEqual({ hostname: p.hostname, records: expected });
      await putDns([]).expect(200);
      expect((await dns()).body.records).toEqual([]);
      await putDns(records).expect(200);
    });

    it.each<[string, unknown]>([
      ['MX without priority', [{ type: 'MX', name: '@', value: 'mx.example' }]],
      ['MX priority 65536', [{ type: 'MX', name: '@', value: 'mx.example', priority: 65536 }]],
      ['priority on an A record', [{ type: 'A', name: '@', value: '203.0.113.7', priority: 1 }]],
      ['ttl 59', [{ type: 'A', name: '@', value: '203.0.113.7', ttl: 59 }]],
      ['ttl 86401', [{ type: 'A', name: '@', value: '203.0.113.7', ttl: 86401 }]],
      ['an unknown type', [{ type: 'ALIAS', name: '@', value: 'x.example' }]],
      ['a value of 2049', [{ type: 'TXT', name: '@', value: 'v'.repeat(2049) }]],
      ['no name', [{ type: 'A', value: '203.0.113.7' }]],
      ['101 records', Array.from({ length: 101 }, (_, i) => ({ type: 'A', name: `h${i}`, value: '203.0.113.7' }))],
      ['records not an array', { type: 'A' }],
    ])('refuses %s with 400 and changes nothing', async (_name, records) => {
      const before = (await dns()).body.records;
      const res = await putDns(records);
      expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
      expect((await dns()).body.records).toEqual(before);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['A not-an-ip', { type: 'A', value: 'not-an-ip' }, 'must be an IPv4 address'],
      ['A with an IPv6', { type: 'A', value: '2001:db8::1' }, 'must be an IPv4 address'],
      ['AAAA with an IPv4', { type: 'AAAA', value: '203.0.113.7' }, 'must be an IPv6 address'],
      ['CNAME not a hostname', { type: 'CNAME', value: 'not a host' }, 'must be a hostname'],
      ['NS not a hostname', { type: 'NS', value: 'http://ns.example' }, 'must be a hostname'],
      ['MX with the priority in the value', { type: 'MX', value: '10 mx.example', priority: 10 }, 'exchange hostname'],
      ['SRV without a port', { type: 'SRV', value: '10 5 sip.example.com' }, 'priority weight port target'],
      ['URL301 not a URL', { type: 'URL301', value: 'example.org/landing' }, 'http(s) URL'],
    ])('refuses a value that does not fit its type (%s) naming the record index', async (_n, bad, problem) => {
      const before = (await dns()).body.records;
      const res = await putDns([
        { type: 'TXT', name: '@', value: 'ok' },
        { name: 'x', ...bad },
      ]);
      expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
      expect(res.body.details.fields).toEqual([
        { field: 'records.1.value', problems: [expect.stringContaining(problem)] },
      ]);
      expect(res.body.message).toMatch(/^Invalid request: records\.1\.value must be/);
      expect((await dns()).body.records).toEqual(before);
    });

    it('accepts a value of every type in its own form', async () => {
      const records = [
        { type: 'A', name: '@', value: '203.0.113.7' },
        { type: 'AAAA', name: '@', value: '2001:db8::1' },
        { type: 'CNAME', name: 'www', value: 'edge.example.net' },
        { type: 'NS', name: 'sub', value: 'ns1.example.net' },
        { type: 'MX', name: '@', value: 'mx1.mail.example', priority: 10 },
        { type: 'SRV', name: '_sip._tcp', value: '10 5 5060 sip.example.com' },
        { type: 'TXT', name: '@', value: 'anything at all' },
        { type: 'URL', name: 'go', value: 'https://example.org/x' },
        { type: 'FRAME', name: 'f', value: 'http://example.org' },
      ];
      await putDns(records).expect(200);
    });

    it('accepts 100 records and a 2048-character value', async () => {
      const many = Array.from({ length: 100 }, (_, i) => ({ type: 'TXT', name: `t${i}`, value: 'v'.repeat(2048) }));
      await putDns(many).expect(200);
      expect((await dns()).body.records).toHaveLength(100);
    });

    it('a PUT the registrar refuses answers 502 registrar_error with its reason and changes nothing', async () => {
      const before = (await dns()).body.records;
      // The registrar moved the domain to custom nameservers behind our back: it refuses record writes.
      await t.db.query("update sandbox_registrations set nameservers = '{ns1.elsewhere.example}' where hostname = $1", [
        p.hostname,
      ]);
      const res = await putDns([{ type: 'A', name: '@', value: '203.0.113.9' }]);
      expect([res.status, res.body.error]).toEqual([502, 'registrar_error']);
      expect(res.body.message).toContain('custom nameservers');
      await t.db.query("update sandbox_registrations set nameservers = '{}' where hostname = $1", [p.hostname]);
      expect((await dns()).body.records).toEqual(before);
    });

    it('sets custom nameservers, refuses bad ones, and an empty list restores the registrar DNS', async () => {
      const res = await putNs(['NS1.Example.NET.', 'ns2.example.net']).expect(200);
      expect(res.body).toEqual({ hostname: p.hostname, nameservers: ['ns1.example.net', 'ns2.example.net'] });
      const live = await request(t.server).get(`/v1/domain-purchases/${p.id}/details`).set(auth());
      expect(live.body.live).toMatchObject({
        usingRegistrarDns: false,
        nameservers: ['ns1.example.net', 'ns2.example.net'],
      });
      expect(live.body.purchase.nameservers).toEqual(['ns1.example.net', 'ns2.example.net']);
      expect((await dns()).status).toBe(409);

      const tooMany = await putNs(Array.from({ length: 14 }, (_, i) => `ns${i}.example.net`));
      expect(tooMany.status).toBe(400);
      for (const bad of [['not a host'], ['ns1'], ['-x.example.net'], [''], ['a'.repeat(254)], [42]]) {
        expect([bad, (await putNs(bad)).status]).toEqual([bad, 400]);
      }
      await request(t.server).put(`/v1/domain-purchases/${p.id}/nameservers`).set(auth()).send({}).expect(400);
      const refused = await putNs(['refused-ns.example.net']);
      expect([refused.status, refused.body.error]).toEqual([502, 'registrar_error']);
      expect(refused.body.message).toContain('not registered at the registry');
      expect(
        (await request(t.server).get(`/v1/domain-purchases/${p.id}`).set(auth())).body.purchase.nameservers,
      ).toEqual(['ns1.example.net', 'ns2.example.net']);
      await putNs(Array.from({ length: 13 }, (_, i) => `ns${i}.example.net`)).expect(200);

      const reverted = await putNs([]).expect(200);
      // The answer names the registrar's nameservers it restored, not the empty list sent.
      expect(reverted.body).toEqual({ hostname: p.hostname, nameservers: SANDBOX_DEFAULT_NAMESERVERS });
      const restored = await request(t.server).get(`/v1/domain-purchases/${p.id}/details`).set(auth());
      expect(restored.body.live.usingRegistrarDns).toBe(true);
      await dns().expect(200);
    });
  });

  describe('renew and auto-renew', () => {
    const renew = (id: string, body: unknown, idem?: string) => {
      const req = request(t.server).post(`/v1/domain-purchases/${id}/renew`).set(auth());
      return (idem ? req.set('idempotency-key', idem) : req).send(body as object);
    };
    const renewalCharges = (id: string) =>
      t.db.query<{ idempotency_key: string; amount_cents: number }>(
        'select idempotency_key, amount_cents from sandbox_charges where idempotency_key like $1 order by created_at',
        [`purchase:${id}:renew:%`],
      );

    it('charges and pushes expiresAt out by the years; a retry with the Idempotency-Key does not charge again', async () => {
      const p = await bought();
      const first = await renew(p.id, { years: 2 }, `renew-${p.id}`).expect(200);
      // The renewal's own charge is in the answer; the purchase keeps the registration's.
      expect(first.body.renewal).toMatchObject({
        n: 1,
        years: 2,
        totalCents: 3446,
        currency: 'USD',
        status: 'renewed',
        previousExpiresAt: p.expiresAt,
        expiresAt: first.body.purchase.expiresAt,
      });
      expect([first.body.purchase.years, first.body.purchase.totalCents]).toEqual([p.years, p.totalCents]);
      const moved = Date.parse(first.body.purchase.expiresAt) - Date.parse(p.expiresAt);
      expect(Math.round(moved / (365 * 86_400_000))).toBe(2);
      const replay = await renew(p.id, { years: 2 }, `renew-${p.id}`).expect(200);
      expect(replay.headers['idempotent-replay']).toBe('true');
      expect(replay.body).toEqual(first.body);
      // .com renewal: 1498 a year; 15% of 2996 is 450.
      expect(await renewalCharges(p.id)).toEqual([{ idempotency_key: `purchase:${p.id}:renew:1`, amount_cents: 3446 }]);
      const second = await renew(p.id, { years: 1 }, `renew-${p.id}-b`).expect(200);
      expect(Date.parse(second.body.purchase.expiresAt)).toBeGreaterThan(Date.parse(first.body.purchase.expiresAt));
      expect((await renewalCharges(p.id)).map((c) => c.idempotency_key)).toEqual([
        `purchase:${p.id}:renew:1`,
        `purchase:${p.id}:renew:2`,
      ]);
      const evts = await t.db.query<{ type: string; data: any }>(
        "select type, data from outbox_events where aggregate_id = $1 and data->>'operation' = 'renewal'",
        [p.id],
      );
      expect(evts.map((e) => e.type)).toEqual(['domain_purchase.completed', 'domain_purchase.completed']);
    });

    it('refuses a renewal priced above maxTotalCents before any charge (409 price_changed); at the price it renews', async () => {
      const p = await bought();
      for (const maxTotalCents of [0, 1.5, '1723', null]) {
        const res = await renew(p.id, { years: 1, maxTotalCents });
        expect([maxTotalCents, res.status, res.body.error]).toEqual([maxTotalCents, 400, 'bad_request']);
      }
      // .com renewal: 1498 a year plus the 15% fee (225) is 1723; the caller confirmed a cent less.
      const risen = await renew(p.id, { years: 1, maxTotalCents: 1722 }, `max-${p.id}`).expect(409);
      expect(risen.body).toEqual({
        error: 'price_changed',
        message: 'The live total is 1723 cents, above maxTotalCents 1722; nothing was charged',
        details: { totalCents: 1723, maxTotalCents: 1722, currency: 'USD' },
      });
      expect(await renewalCharges(p.id)).toEqual([]);
      const unchanged = await request(t.server).get(`/v1/domain-purchases/${p.id}`).set(auth()).expect(200);
      expect(unchanged.body.purchase.expiresAt).toBe(p.expiresAt);

      const renewed = await renew(p.id, { years: 1, maxTotalCents: 1723 }, `max-${p.id}-b`).expect(200);
      expect(renewed.body.renewal).toMatchObject({ n: 1, years: 1, totalCents: 1723, status: 'renewed' });
      expect(await renewalCharges(p.id)).toEqual([{ idempotency_key: `purchase:${p.id}:renew:1`, amount_cents: 1723 }]);
    });

    it('refuses bad years, unfinished purchases, and a renewal beyond the registry maximum (refunded)', async () => {
      const p = await bought({ years: 9 });
      for (const years of [0, 11, 1.5, '1', undefined]) expect((await renew(p.id, { years })).status).toBe(400);
      const refused = await renew(p.id, { years: 2 });
      expect([refused.status, refused.body.error]).toEqual([502, 'registrar_error']);
      const [charge] = await renewalCharges(p.id);
      const refunds = await t.db.query('select idempotency_key from sandbox_refunds where idempotency_key = $1', [
        `purchase:${p.id}:renew:1:refund`,
      ]);
      expect([charge.idempotency_key, refunds.length]).toEqual([`purchase:${p.id}:renew:1`, 1]);
      const refusedPurchase = await buy({ hostname: uniqueDomain('refuse'), registrant: REGISTRANT }).expect(502);
      expect((await renew(refusedPurchase.body.details.purchaseId, { years: 1 })).status).toBe(409);
    });

    it('a declined renewal is 402 with nothing extended', async () => {
      const ws = await purchaseWorkspace(t.server, 'pm_card_visa');
      const p = await bought({}, ws.apiKey);
      await t.db.query("update workspaces set payment_method_id = 'pm_card_chargeDeclined' where id = $1", [
        p.workspaceId,
      ]);
      const res = await request(t.server)
        .post(`/v1/domain-purchases/${p.id}/renew`)
        .set(auth(ws.apiKey))
        .send({ years: 1 });
      expect([res.status, res.body.error]).toEqual([402, 'billing_required']);
      const after = await request(t.server).get(`/v1/domain-purchases/${p.id}`).set(auth(ws.apiKey));
      expect(after.body.purchase.expiresAt).toBe(p.expiresAt);
    });

    it('PATCH sets autoRenew; the job renews due purchases and reports failures; autoRenew false lets it lapse', async () => {
      for (const body of [{}, { autoRenew: 'yes' }, { autoRenew: true, years: 1 }]) {
        const res = await request(t.server).patch('/v1/domain-purchases/pur_x').set(auth()).send(body);
        expect(res.status).toBe(400);
      }
      const lapsing = await bought();
      const renewing = await bought();
      const patched = await request(t.server)
        .patch(`/v1/domain-purchases/${renewing.id}`)
        .set(auth())
        .send({ autoRenew: true })
        .expect(200);
      expect(patched.body.purchase.autoRenew).toBe(true);
      const ws = await purchaseWorkspace(t.server, 'pm_card_visa');
      const failing = await bought({ autoRenew: false }, ws.apiKey);
      await t.db.query(
        "update workspaces set payment_method_id = 'pm_card_chargeDeclinedInsufficientFunds' where id = $1",
        [failing.workspaceId],
      );
      await request(t.server)
        .patch(`/v1/domain-purchases/${failing.id}`)
        .set(auth(ws.apiKey))
        .send({ autoRenew: true })
        .expect(200);

      const get = async (id: string, k = key) =>
        (await request(t.server).get(`/v1/domain-purchases/${id}`).set(auth(k))).body.purchase;
      const renewed = await eventually(
        () => get(renewing.id),
        (purchase) => purchase.expiresAt !== renewing.expiresAt,
        { timeoutMs: 10_000, everyMs: 250, what: 'the auto-renewal' },
      );
      expect(Math.round((Date.parse(renewed.expiresAt) - Date.parse(renewing.expiresAt)) / 86_400_000)).toBeGreaterThan(
        364,
      );
      const failed = await eventually(
        () =>
          t.db.query<{ type: string; data: any }>(
            "select type, data from outbox_events where aggregate_id = $1 and type = 'domain_purchase.failed'",
            [failing.id],
          ),
        (rows) => rows.length > 0,
        { timeoutMs: 10_000, everyMs: 250, what: 'domain_purchase.failed of the declined renewal' },
      );
      expect(failed).toHaveLength(1);
      expect(failed[0].data).toMatchObject({
        operation: 'renewal',
        renewal: { status: 'failed', auto: true, failure: { code: 'billing_required' } },
      });
      // Time must pass: two more sweeps (PURCHASE_SWEEP_SECONDS=1) must run and charge nothing.
      await sleep(2_500);
      // One attempt a day after a failure, not one per sweep; the lapsing domain is left alone.
      expect(
        await t.db.query('select 1 from sandbox_charges where idempotency_key like $1', [
          `purchase:${failing.id}:renew:%`,
        ]),
      ).toHaveLength(1);
      expect((await get(lapsing.id)).expiresAt).toBe(lapsing.expiresAt);
      expect((await get(failing.id, ws.apiKey)).expiresAt).toBe(failing.expiresAt);
      const evts = await t.db.query<{ type: string }>(
        "select type from outbox_events where aggregate_id = $1 and data->>'operation' = 'renewal'",
        [renewing.id],
      );
      expect(evts.map((e) => e.type)).toEqual(['domain_purchase.completed']);
    });
  });
});

import {
  DnsServer,
  EDGE_IP,
  EDGE_TARGET,
  ORIGIN_URL,
  REGISTRANT,
  TestApp,
  domainEnv,
  domainZones,
  edgeRequest,
  eventually,
  purchaseWorkspace,
  refuseDnsWritesForNsfailNames,
  startDnsServer,
  startTestApp,
  uniqueDomain,
} from '@test/support';
import request from 'supertest';

/** The purchase saga over HTTP with the sandbox registrar and payments (DESIGN.md's test cards and names). */
describe('/v1/domain-purchases: the saga', () => {
  let dns: DnsServer;
  let t: TestApp;
  let key: string;
  let workspaceId: string;

  const buy = (body: Record<string, unknown>, k = key) =>
    request(t.server).post('/v1/domain-purchases').set('authorization', `Bearer ${k}`).send(body);
  const charges = (hostname: string) =>
    t.db.query<{ idempotency_key: string; amount_cents: number; status: string; id: string }>(
      "select id, idempotency_key, amount_cents, status from sandbox_charges where metadata->>'hostname' = $1",
      [hostname],
    );
  const refunds = (chargeId: string) =>
    t.db.query<{ idempotency_key: string }>('select idempotency_key from sandbox_refunds where charge_id = $1', [
      chargeId,
    ]);
  const registered = async (hostname: string) =>
    (await t.db.query('select 1 from sandbox_registrations where hostname = $1', [hostname])).length;
  const rows = (hostname: string) =>
    t.db.query<{ id: string; status: string; step: string }>(
      'select id, status, step from purchases where hostname = $1',
      [hostname],
    );
  const events = (purchaseId: string) =>
    t.db.query<{ type: string; data: any }>(
      "select type, data from outbox_events where aggregate_kind = 'purchase' and aggregate_id = $1 order by created_at",
      [purchaseId],
    );

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    ({ apiKey: key, workspaceId } = await purchaseWorkspace(t.server, 'pm_card_visa'));
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('checks availability and the one-year total without reserving anything', async () => {
    const hostname = uniqueDomain();
    const res = await request(t.server)
      .get('/v1/domain-purchases/check')
      .query({ hostname: `  ${hostname.toUpperCase()} ` })
      .set('authorization', `Bearer ${key}`)
      .expect(200);
    // .com wholesale 1098; 15% is 165, under the 200 floor.
    expect(res.body).toEqual({ hostname, available: true, totalCents: 1298, currency: 'USD' });
    const io = await request(t.server)
      .get('/v1/domain-purchases/check')
      .query({ hostname: uniqueDomain('x', 'io') })
      .set('authorization', `Bearer ${key}`)
      .expect(200);
    expect(io.body.totalCents).toBe(3498 + 525);
    const taken = await request(t.server)
      .get('/v1/domain-purchases/check')
      .query({ hostname: uniqueDomain('taken') })
      .set('authorization', `Bearer ${key}`)
      .expect(200);
    expect(taken.body.available).toBe(false);
    for (const bad of ['shop.example.com', 'ab', 'localhost', 'co.uk', '1.2.3.4', 'bad_name.com']) {
      const r = await request(t.server)
        .get('/v1/domain-purchases/check')
        .query({ hostname: bad })
        .set('authorization', `Bearer ${key}`);
      expect([bad, r.status, r.body.error]).toEqual([bad, 400, 'bad_request']);
    }
    await request(t.server).get('/v1/domain-purchases/check').set('authorization', `Bearer ${key}`).expect(400);
    await request(t.server).get('/v1/domain-purchases/check').query({ hostname }).expect(401);
    expect(await t.db.query('select 1 from purchases')).toHaveLength(0);
    expect(await charges(hostname)).toHaveLength(0);
  });

  it('buys a domain: charged once, registered with the registrant verbatim, completed, event written', async () => {
    const hostname = uniqueDomain();
    const res = await buy({
      hostname: ` ${hostname.toUpperCase()} `,
      years: 2,
      registrant: { ...REGISTRANT, organization: 'Analytical Engines Ltd', address2: 'Floor 2' },
      customerReference: 'order-42',
    }).expect(201);
    const p = res.body.purchase;
    expect(p).toMatchObject({
      workspaceId,
      hostname,
      years: 2,
      wholesaleCents: 2196,
      feeCents: 330,
      totalCents: 2526,
      currency: 'USD',
      registrar: 'sandbox',
      status: 'completed',
      registrant: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'GB' },
      whoisPrivacyEnabled: true,
      autoRenew: false,
      customerReference: 'order-42',
      connectedDomainId: null,
    });
    expect(p.id).toMatch(/^pur_/);
    expect(p.registrarDomainId).toBeTruthy();
    expect(p.registrant.phone).toBeUndefined();
    const years = (Date.parse(p.expiresAt) - Date.now()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(1.95);
    expect(years).toBeLessThan(2.05);
    const charged = await charges(hostname);
    expect(charged).toEqual([
      expect.objectContaining({ idempotency_key: `purchase:${p.id}:charge`, amount_cents: 2526, status: 'succeeded' }),
    ]);
    const [registration] = await t.db.query<{ registrant: unknown; whois_privacy: boolean }>(
      'select registrant, whois_privacy from sandbox_registrations where hostname = $1',
      [hostname],
    );
    expect(registration).toEqual({
      registrant: { ...REGISTRANT, organization: 'Analytical Engines Ltd', address2: 'Floor 2' },
      whois_privacy: true,
    });
    expect((await events(p.id)).map((e) => e.type)).toEqual(['domain_purchase.completed']);
    expect((await events(p.id))[0].data.purchase).toMatchObject({ id: p.id, customerReference: 'order-42' });
    const got = await request(t.server).get(`/v1/domain-purchases/${p.id}`).set('authorization', `Bearer ${key}`);
    expect(got.body.purchase).toEqual(p);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ['pm_card_authenticationRequired', 'authentication_required'],
    [undefined, 'no_payment_method'],
  ])('card %s: 402 billing_required, row failed, nothing registered', async (card, reason) => {
    const ws = await purchaseWorkspace(t.server, card);
    const hostname = uniqueDomain();
    const res = await buy({ hostname, registrant: REGISTRANT }, ws.apiKey).expect(402);
    expect(res.body.error).toBe('billing_required');
    expect(res.body.message).toContain(reason);
    const [row] = await rows(hostname);
    expect(row).toMatchObject({ status: 'failed', step: 'failed' });
    expect(res.body.details.purchaseId).toBe(row.id);
    expect(await registered(hostname)).toBe(0);
    expect((await charges(hostname)).filter((c) => c.status === 'succeeded')).toEqual([]);
    expect((await events(row.id)).map((e) => e.type)).toEqual(['domain_purchase.failed']);
    // failed holds no hostname: the same name can be bought once the card works.
    await buy({ hostname, registrant: REGISTRANT }).expect(201);
  });

  it('answers 409 unavailable for a taken name, with no row and no charge', async () => {
    const hostname = uniqueDomain('taken');
    const res = await buy({ hostname, registrant: REGISTRANT }).expect(409);
    expect(res.body.error).toBe('unavailable');
    expect(await rows(hostname)).toEqual([]);
    expect(await charges(hostname)).toEqual([]);
  });

  it('refunds a registrar refusal: 502 registration_failed with the reason and purchaseId, row refunded', async () => {
    const hostname = uniqueDomain('refuse');
    const res = await buy({ hostname, registrant: REGISTRANT }).expect(502);
    expect(res.body.error).toBe('registration_failed');
    expect(res.body.message).toContain('postal address could not be verified');
    const [row] = await rows(hostname);
    expect(row).toMatchObject({ status: 'refunded', step: 'refunded' });
    expect(res.body.details).toMatchObject({ purchaseId: row.id, stage: 'register' });
    const [charge] = await charges(hostname);
    expect(await refunds(charge.id)).toEqual([{ idempotency_key: `purchase:${row.id}:refund` }]);
    expect(await registered(hostname)).toBe(0);
    expect((await events(row.id)).map((e) => e.type)).toEqual(['domain_purchase.failed']);
    const got = await request(t.server).get(`/v1/domain-purchases/${row.id}`).set('authorization', `Bearer ${key}`);
    expect(got.body.purchase.status).toBe('refunded');
  });

  it('answers 409 price_changed above maxTotalCents before any charge', async () => {
    const hostname = uniqueDomain();
    const res = await buy({ hostname, registrant: REGISTRANT, maxTotalCents: 1297 }).expect(409);
    expect(res.body).toMatchObject({ error: 'price_changed', details: { totalCents: 1298, maxTotalCents: 1297 } });
    expect(await rows(hostname)).toEqual([]);
    expect(await charges(hostname)).toEqual([]);
    await buy({ hostname, registrant: REGISTRANT, maxTotalCents: 1298 }).expect(201);
  });

  it('refuses WHOIS privacy on a TLD without it (400) and buys it with privacy off', async () => {
    const hostname = uniqueDomain('shop', 'us');
    const res = await buy({ hostname, registrant: REGISTRANT }).expect(400);
    expect(res.body.details.fields[0].field).toBe('enableWhoisPrivacy');
    expect(await charges(hostname)).toEqual([]);
    const ok = await buy({ hostname, registrant: REGISTRANT, enableWhoisPrivacy: false }).expect(201);
    expect(ok.body.purchase.whoisPrivacyEnabled).toBe(false);
  });

  it('autoConnect: creates the Domain and points @ and www at the edge', async () => {
    const hostname = uniqueDomain('connect');
    const res = await buy({ hostname, registrant: REGISTRANT, autoConnect: { originUrl: ORIGIN_URL, keepHost: true } });
    expect(res.status).toBe(201);
    const p = res.body.purchase;
    expect(p.status).toBe('completed');
    expect(p.connectedDomainId).toMatch(/^dom_/);
    const domain = await request(t.server)
      .get(`/v1/domains/${p.connectedDomainId}`)
      .set('authorization', `Bearer ${key}`)
      .expect(200);
    // www works too: the Domain redirects its www twin to the apex (www used to answer "Site not found").
    expect(domain.body.domain).toMatchObject({
      hostname,
      apex: true,
      originUrl: ORIGIN_URL,
      keepHost: true,
      redirectWww: true,
    });
    // The new Domain reaches the edge's replica within a second of its creation.
    const www = await eventually(
      () => edgeRequest('http', { port: t.config.edgeHttpPort, hostname: `www.${hostname}`, path: '/shop?x=1' }),
      (res) => res.status !== 404,
      { timeoutMs: 1_000, everyMs: 25, what: 'the www twin at the edge' },
    );
    expect([www.status, www.headers.location]).toEqual([301, `https://${hostname}/shop?x=1`]);
    const records = await request(t.server)
      .get(`/v1/domain-purchases/${p.id}/dns`)
      .set('authorization', `Bearer ${key}`)
      .expect(200);
    expect(records.body.records).toEqual([
      { type: 'A', name: '@', value: EDGE_IP, ttl: 1800 },
      { type: 'CNAME', name: 'www', value: EDGE_TARGET, ttl: 1800 },
    ]);
  });

  it('autoConnect failure rolls back: no Domain, charge refunded, row refunded, 502', async () => {
    const hostname = uniqueDomain('clash');
    // Another workspace already connected this hostname: the Domain cannot be created.
    const other = await purchaseWorkspace(t.server, 'pm_card_visa');
    await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${other.apiKey}`)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    const res = await buy({ hostname, registrant: REGISTRANT, autoConnect: { originUrl: ORIGIN_URL } }).expect(502);
    expect(res.body.error).toBe('registration_failed');
    expect(res.body.details.stage).toBe('autoConnect');
    const [row] = await rows(hostname);
    expect(row).toMatchObject({ status: 'refunded', id: res.body.details.purchaseId });
    const [charge] = await charges(hostname);
    expect(await refunds(charge.id)).toHaveLength(1);
    const domains = await t.db.query<{ workspace_id: string }>(
      'select workspace_id from domains where hostname = $1 and deleted_at is null',
      [hostname],
    );
    expect(domains).toEqual([{ workspace_id: other.workspaceId }]);
    expect((await events(row.id)).map((e) => e.type)).toEqual(['domain_purchase.failed']);
  });

  it('autoConnect failure after the Domain exists removes it, refunds, and answers 502', async () => {
    await refuseDnsWritesForNsfailNames((sql) => t.db.query(sql));
    const hostname = uniqueDomain('nsfail');
    const res = await buy({ hostname, registrant: REGISTRANT, autoConnect: { originUrl: ORIGIN_URL } }).expect(502);
    expect(res.body).toMatchObject({ error: 'registration_failed', details: { stage: 'autoConnect' } });
    expect(res.body.message).toContain('custom nameservers');
    const [row] = await rows(hostname);
    expect(row).toMatchObject({ status: 'refunded', id: res.body.details.purchaseId });
    const domains = await t.db.query<{ id: string; deleted: boolean }>(
      'select id, deleted_at is not null as deleted from domains where hostname = $1',
      [hostname],
    );
    expect(domains).toEqual([{ id: `dom_${row.id.slice(4)}`, deleted: true }]);
    const [charge] = await charges(hostname);
    expect(await refunds(charge.id)).toEqual([{ idempotency_key: `purchase:${row.id}:refund` }]);
    const domainEvents = await t.db.query<{ type: string }>(
      "select type from outbox_events where aggregate_kind = 'domain' and aggregate_id = $1 order by created_at",
      [domains[0].id],
    );
    expect(domainEvents.map((e) => e.type)).toEqual(['domain.created', 'domain.deleted']);
    const got = await request(t.server).get(`/v1/domain-purchases/${row.id}`).set('authorization', `Bearer ${key}`);
    expect(got.body.purchase).toMatchObject({ status: 'refunded', connectedDomainId: null });
  });

  it('checks autoConnect.originUrl before charging: https only, SSRF rules', async () => {
    const hostname = uniqueDomain();
    const http = await buy({
      hostname,
      registrant: REGISTRANT,
      autoConnect: { originUrl: 'http://origin.saas-test.net' },
    });
    expect(http.status).toBe(400);
    const internal = await buy({
      hostname,
      registrant: REGISTRANT,
      autoConnect: { originUrl: 'https://internal.saas-test.net' },
    });
    expect([internal.status, internal.body.error]).toEqual([400, 'preflight_failed']);
    const metadata = await buy({
      hostname,
      registrant: REGISTRANT,
      autoConnect: { originUrl: 'https://169.254.169.254' },
    });
    expect(metadata.status).toBe(400);
    expect(await charges(hostname)).toEqual([]);
  });

  it('two simultaneous purchases of one hostname: one 201, one 409, exactly one charge', async () => {
    const hostname = uniqueDomain('race');
    const other = await purchaseWorkspace(t.server, 'pm_card_visa');
    const results = await Promise.all([
      buy({ hostname, registrant: REGISTRANT }),
      buy({ hostname, registrant: REGISTRANT }, other.apiKey),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('unavailable');
    const check = await request(t.server)
      .get('/v1/domain-purchases/check')
      .query({ hostname })
      .set('authorization', `Bearer ${key}`);
    expect(check.body.available).toBe(false);
    expect(await charges(hostname)).toHaveLength(1);
    expect(await rows(hostname)).toHaveLength(1);
    expect(await registered(hostname)).toBe(1);
  });

  it('five at once from five workspaces: still exactly one purchase and one charge', async () => {
    const hostname = uniqueDomain('race');
    const keys = await Promise.all(Array.from({ length: 5 }, () => purchaseWorkspace(t.server, 'pm_card_visa')));
    const results = await Promise.all(keys.map((k) => buy({ hostname, registrant: REGISTRANT }, k.apiKey)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await charges(hostname)).toHaveLength(1);
  });

  it('the live-hostname index itself refuses a second pending or completed row', async () => {
    const [row] = await t.db.query<{ hostname: string }>(
      "select hostname from purchases where status = 'completed' limit 1",
    );
    await expect(
      t.db.query(
        `insert into purchases (id, workspace_id, hostname, status, step, shard, state, version, created_at, updated_at)
         values ('pur_dup', $1, $2, 'pending', 'charging', 0, '{}', 1, now(), now())`,
        [workspaceId, row.hostname],
      ),
    ).rejects.toThrow(/purchases_live_hostname_idx/);
  });

  it('replays a purchase with the same Idempotency-Key without charging again', async () => {
    const hostname = uniqueDomain();
    const send = () =>
      request(t.server)
        .post('/v1/domain-purchases')
        .set('authorization', `Bearer ${key}`)
        .set('idempotency-key', `buy-${hostname}`)
        .send({ hostname, registrant: REGISTRANT });
    const first = await send().expect(201);
    const second = await send().expect(201);
    expect(second.headers['idempotent-replay']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await charges(hostname)).toHaveLength(1);
    // A refused purchase answers 502, which is not kept; the retry reaches the same purchase, not a new charge.
    const refused = uniqueDomain('refuse');
    const again = () =>
      request(t.server)
        .post('/v1/domain-purchases')
        .set('authorization', `Bearer ${key}`)
        .set('idempotency-key', `buy-${refused}`)
        .send({ hostname: refused, registrant: REGISTRANT });
    const a = await again().expect(502);
    const b = await again().expect(502);
    expect(b.body.details.purchaseId).toBe(a.body.details.purchaseId);
    expect(await charges(refused)).toHaveLength(1);
  });
});

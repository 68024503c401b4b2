import {
  DnsServer,
  REGISTRANT,
  TestApp,
  domainEnv,
  domainZones,
  purchaseWorkspace,
  sleep,
  startDnsServer,
  startTestApp,
  uniqueDomain,
} from '@test/support';
import request from 'supertest';

/**
 * A purchase whose step the database refuses for good (a data error, not an outage) ends through
 * its compensation, never a retry loop: charged once and refunded, `refunded` with
 * the reason, one outcome event, and no further charge however long the sweeper runs. The values the
 * door lets through but this database refuses come from triggers the test installs in its own
 * database (a NUL never gets this far: the door refuses it, checked first).
 */
describe('purchases: a value the database can never store', () => {
  let dns: DnsServer;
  let t: TestApp;
  let key: string;

  const buy = (body: Record<string, unknown>) =>
    request(t.server).post('/v1/domain-purchases').set('authorization', `Bearer ${key}`).send(body);
  const row = (hostname: string) =>
    t.db
      .query<{ id: string; status: string; step: string; version: number; state: any }>(
        'select id, status, step, version, state from purchases where hostname = $1',
        [hostname],
      )
      .then((rows) => rows[0]);
  const charges = (hostname: string) =>
    t.db.query<{ id: string; idempotency_key: string; status: string }>(
      "select id, idempotency_key, status from sandbox_charges where metadata->>'hostname' = $1 order by created_at",
      [hostname],
    );
  const refunds = (hostname: string) =>
    t.db.query<{ idempotency_key: string }>(
      `select r.idempotency_key from sandbox_refunds r join sandbox_charges c on c.id = r.charge_id
       where c.metadata->>'hostname' = $1`,
      [hostname],
    );
  const outcomes = (id: string) =>
    t.db.query<{ type: string }>(
      "select type from outbox_events where aggregate_kind = 'purchase' and aggregate_id = $1",
      [id],
    );

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    // Sweeps every second: a purchase left to retry would be retried many times within the test.
    t = await startTestApp({ env: { ...domainEnv(dns.address), PURCHASE_SWEEP_SECONDS: '1' } });
    ({ apiKey: key } = await purchaseWorkspace(t.server, 'pm_card_visa'));
    // Data errors as PostgreSQL raises them for a value it cannot store (22021: a NUL bound as text).
    await t.db.query(`create function test_unstorable() returns trigger language plpgsql as $$
      begin
        if (tg_op = 'INSERT' and new.hostname like 'uninsertable-%')
          or (new.step = 'registering' and new.hostname like 'unstorable-%')
          or (new.step = 'completed' and new.hostname like 'unrecordable-%') then
          raise exception 'invalid byte sequence for encoding "UTF8": 0x00' using errcode = '22021';
        end if;
        return new;
      end $$`);
    await t.db.query(
      'create trigger test_unstorable before insert or update on purchases for each row execute function test_unstorable()',
    );
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('a NUL in customerReference is refused at the door at once: no purchase, no charge', async () => {
    const hostname = uniqueDomain('nul');
    const started = Date.now();
    const res = await buy({ hostname, registrant: REGISTRANT, customerReference: 'order-\u0000-1' });
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toEqual([
      { field: 'customerReference', problems: [expect.stringMatching(/NUL character/)] },
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await row(hostname)).toBeUndefined();
    expect(await charges(hostname)).toEqual([]);
  });

  it('a purchase the database refuses to insert answers 400 at once: nothing charged, nothing retried', async () => {
    const hostname = uniqueDomain('uninsertable');
    const started = Date.now();
    const res = await buy({ hostname, registrant: REGISTRANT });
    expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    // An absence to prove: two sweeps, and nothing may be charged later either.
    await sleep(2_500);
    expect(await row(hostname)).toBeUndefined();
    expect(await charges(hostname)).toEqual([]);
  });

  it('a charge whose outcome cannot be recorded is refunded once: refunded with the reason, never retried', async () => {
    const hostname = uniqueDomain('unstorable');
    const started = Date.now();
    const res = await buy({ hostname, registrant: REGISTRANT });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
    expect(res.body.message).toMatch(/^The purchase failed: the database refuses a value .*; the charge was refunded$/);

    const purchase = await row(hostname);
    expect(purchase).toMatchObject({ status: 'refunded', step: 'refunded' });
    expect(purchase.state.saga.failure).toEqual({
      code: 'bad_request',
      stage: 'charge',
      reason: expect.stringMatching(/the database refuses a value .*SQLSTATE 22021/),
    });
    expect((await charges(hostname)).map((c) => c.idempotency_key)).toEqual([`purchase:${purchase.id}:charge`]);
    expect(await refunds(hostname)).toEqual([{ idempotency_key: `purchase:${purchase.id}:refund` }]);
    expect(await t.db.query('select 1 from sandbox_registrations where hostname = $1', [hostname])).toEqual([]);
    expect(await outcomes(purchase.id)).toEqual([{ type: 'domain_purchase.failed' }]);

    // The API shows why.
    const read = await request(t.server)
      .get(`/v1/domain-purchases/${purchase.id}`)
      .set('authorization', `Bearer ${key}`)
      .expect(200);
    expect(read.body.purchase).toMatchObject({ status: 'refunded', failure: { code: 'bad_request', stage: 'charge' } });

    // No retry loop: several sweeps later the purchase and the books are as they were.
    await sleep(3_000); // an absence to prove: three sweeps of the purchase sweeper
    expect((await row(hostname)).version).toBe(purchase.version);
    expect(await charges(hostname)).toHaveLength(1);
    expect(await refunds(hostname)).toHaveLength(1);
  });

  it('a registration that cannot be recorded is refunded the same way', async () => {
    const hostname = uniqueDomain('unrecordable');
    const res = await buy({ hostname, registrant: REGISTRANT });
    expect([res.status, res.body.error]).toEqual([400, 'bad_request']);
    const purchase = await row(hostname);
    expect(purchase).toMatchObject({ status: 'refunded', step: 'refunded' });
    expect(purchase.state.saga.failure).toMatchObject({ code: 'bad_request', stage: 'register' });
    expect(await charges(hostname)).toHaveLength(1);
    expect(await refunds(hostname)).toEqual([{ idempotency_key: `purchase:${purchase.id}:refund` }]);
    expect(await outcomes(purchase.id)).toEqual([{ type: 'domain_purchase.failed' }]);
  });

  it('leaves no successful charge without a completed purchase or a refund', async () => {
    const orphans = await t.db.query(
      `select c.idempotency_key from sandbox_charges c
       left join sandbox_refunds r on r.charge_id = c.id
       join purchases p on p.id = c.metadata->>'purchaseId'
       where c.status = 'succeeded' and r.id is null and p.status <> 'completed'`,
    );
    expect(orphans).toEqual([]);
  });
});

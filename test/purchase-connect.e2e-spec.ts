import {
  DnsServer,
  EDGE_IP,
  EDGE_TARGET,
  ORIGIN_URL,
  REGISTRANT,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  eventually,
  purchaseWorkspace,
  refuseDnsWritesForNsfailNames,
  startDnsServer,
  startTestApp,
  uniqueDomain,
} from '@test/support';
import request from 'supertest';
import { REGISTRAR_DNS_BACKFILL_SQL } from '../libs/persistence/src/migrations/Migration20261204000000RegistrarDnsBackfill';

/** POST /v1/domain-purchases/{id}/connect (SPEC 4.3 rule 3) over HTTP with the sandbox registrar and payments. */
describe('/v1/domain-purchases/{id}/connect', () => {
  let dns: DnsServer;
  let t: TestApp;
  let key: string;

  const auth = (k: string) => ({ authorization: `Bearer ${k}` });
  const buy = async (hostname = uniqueDomain('later'), k = key) => {
    const res = await request(t.server)
      .post('/v1/domain-purchases')
      .set(auth(k))
      .send({ hostname, registrant: REGISTRANT })
      .expect(201);
    return res.body.purchase as { id: string; hostname: string; connectedDomainId: string | null };
  };
  const connect = (id: string, body: unknown, k = key) =>
    request(t.server)
      .post(`/v1/domain-purchases/${id}/connect`)
      .set(auth(k))
      .send(body as object);
  const records = async (id: string) =>
    (await request(t.server).get(`/v1/domain-purchases/${id}/dns`).set(auth(key)).expect(200)).body.records;
  const purchase = async (id: string) =>
    (await request(t.server).get(`/v1/domain-purchases/${id}`).set(auth(key)).expect(200)).body.purchase;
  const domainRows = (hostname: string) =>
    t.db.query<{ id: string; workspace_id: string; deleted: boolean }>(
      'select id, workspace_id, deleted_at is not null as deleted from domains where hostname = $1 order by created_at',
      [hostname],
    );
  const domainEvents = async (domainId: string) =>
    (
      await t.db.query<{ type: string }>(
        "select type from outbox_events where aggregate_kind = 'domain' and aggregate_id = $1 order by created_at",
        [domainId],
      )
    ).map((e) => e.type);

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    // A short sweep: a connect left mid-step by an outage is resumed within seconds.
    t = await startTestApp({ env: { ...domainEnv(dns.address), PURCHASE_SWEEP_SECONDS: '1' } });
    ({ apiKey: key } = await purchaseWorkspace(t.server, 'pm_card_visa'));
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('connects a purchase made without autoConnect: the Domain, and the routing records beside MX and TXT', async () => {
    const p = await buy();
    expect(p.connectedDomainId).toBeNull();
    const mail = [
      { type: 'MX', name: '@', value: 'mx1.mail.example', ttl: 1800, priority: 10 },
      { type: 'TXT', name: '@', value: 'v=spf1 include:mail.example -all', ttl: 1800 },
      { type: 'A', name: '@', value: '198.51.100.7', ttl: 600 },
      { type: 'A', name: 'shop', value: '198.51.100.8', ttl: 600 },
    ];
    await request(t.server).put(`/v1/domain-purchases/${p.id}/dns`).set(auth(key)).send({ records: mail }).expect(200);

    const res = await connect(p.id, { originUrl: ORIGIN_URL, keepHost: true }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['domain', 'purchase']);
    const { purchase: connected, domain } = res.body;
    expect(connected).toMatchObject({ id: p.id, status: 'completed', connectedDomainId: domain.id });
    expect(domain).toMatchObject({
      hostname: p.hostname,
      apex: true,
      originUrl: ORIGIN_URL,
      keepHost: true,
      status: 'pending',
    });
    expect(domain.id).toMatch(/^dom_/);
    // DESIGN decision 2: only A/AAAA/CNAME/ALIAS at @ and www are rewritten, as autoConnect writes them.
    expect(await records(p.id)).toEqual([
      mail[0],
      mail[1],
      mail[3],
      { type: 'A', name: '@', value: EDGE_IP, ttl: 1800 },
      { type: 'CNAME', name: 'www', value: EDGE_TARGET, ttl: 1800 },
    ]);
    const got = await request(t.server).get(`/v1/domains/${domain.id}`).set(auth(key)).expect(200);
    expect(got.body.domain).toMatchObject({ id: domain.id, hostname: p.hostname });
    expect(await purchase(p.id)).toMatchObject({ connectedDomainId: domain.id, status: 'completed' });
    expect(await domainEvents(domain.id)).toEqual(['domain.created']);

    // Connected already: 409 naming the Domain, nothing changes.
    const again = await connect(p.id, { originUrl: ORIGIN_URL }).expect(409);
    expect(again.body).toMatchObject({ error: 'conflict', details: { domainId: domain.id, hostname: p.hostname } });
    expect((await domainRows(p.hostname)).filter((d) => !d.deleted)).toHaveLength(1);
  });

  it('a connected purchase on our registrar’s DNS asks its owner for nothing, until custom nameservers take the DNS away', async () => {
    const p = await buy();
    const { domain } = (await connect(p.id, { originUrl: ORIGIN_URL }).expect(200)).body;
    const get = async () =>
      (await request(t.server).get(`/v1/domains/${domain.id}`).set(auth(key)).expect(200)).body.domain;
    const managed = {
      registrarDns: { purchaseId: p.id },
      monitorMessage: expect.stringMatching(/^We set up the DNS for you at our registrar: nothing to add/),
    };
    expect(domain).toMatchObject(managed);
    expect(await get()).toMatchObject(managed);
    const nameservers = (list: string[]) =>
      request(t.server).put(`/v1/domain-purchases/${p.id}/nameservers`).set(auth(key)).send({ nameservers: list });
    await nameservers(['ns1.elsewhere.example', 'ns2.elsewhere.example']).expect(200);
    // The DNS is the customer's now: the records are theirs to add, and the line is the monitor's own again.
    const elsewhere = await get();
    expect(elsewhere.registrarDns).toBeNull();
    expect(elsewhere.monitorMessage).not.toMatch(/We set up the DNS/);
    await nameservers([]).expect(200);
    expect(await get()).toMatchObject(managed);
  });

  it('gives registrarDns to domains connected before it existed (the backfill migration), and to no other', async () => {
    const managed = await buy();
    const custom = await buy();
    const [mine, theirs] = [
      (await connect(managed.id, { originUrl: ORIGIN_URL }).expect(200)).body.domain,
      (await connect(custom.id, { originUrl: ORIGIN_URL }).expect(200)).body.domain,
    ];
    await request(t.server)
      .put(`/v1/domain-purchases/${custom.id}/nameservers`)
      .set(auth(key))
      .send({ nameservers: ['ns1.elsewhere.example', 'ns2.elsewhere.example'] })
      .expect(200);
    const stored = async (id: string) =>
      (
        await t.db.query<{ registrar_dns: unknown; version: string }>(
          "select state -> 'registrarDns' as registrar_dns, version from domains where id = $1",
          [id],
        )
      )[0];
    await eventually(
      () => stored(theirs.id as string),
      (row) => row.registrar_dns === null,
      {
        what: 'custom nameservers to take registrarDns away',
      },
    );
    // As the previous release stored them: no registrarDns at all.
    await t.db.query("update domains set state = state - 'registrarDns' where id = any($1)", [[mine.id, theirs.id]]);
    const before = await stored(mine.id as string);

    await t.db.query(REGISTRAR_DNS_BACKFILL_SQL);
    const after = await stored(mine.id as string);
    expect(after.registrar_dns).toEqual({ purchaseId: managed.id });
    // A node of the previous release still holding it cannot write the old state back.
    expect(Number(after.version)).toBe(Number(before.version) + 1);
    // The DNS of a purchase with custom nameservers is its owner's: nothing changes.
    expect((await stored(theirs.id as string)).registrar_dns).toBeNull();
    // Run again (a migration replayed): nothing more to do.
    await t.db.query(REGISTRAR_DNS_BACKFILL_SQL);
    expect(await stored(mine.id as string)).toEqual(after);
  });

  it('keepHost defaults to false; the same Idempotency-Key replays the answer, a new key is a 409', async () => {
    const p = await buy();
    const send = (k: string) =>
      request(t.server)
        .post(`/v1/domain-purchases/${p.id}/connect`)
        .set(auth(key))
        .set('idempotency-key', k)
        .send({ originUrl: ORIGIN_URL });
    const first = await send(`connect-${p.id}`).expect(200);
    expect(first.body.domain.keepHost).toBe(false);
    const replay = await send(`connect-${p.id}`).expect(200);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(replay.body).toEqual(first.body);
    await send(`other-${p.id}`).expect(409);
    expect(await domainRows(p.hostname)).toHaveLength(1);
  });

  it('answers 400 for a bad body, before anything is created', async () => {
    const p = await buy();
    const bad: [unknown, string][] = [
      [{}, 'bad_request'],
      [{ originUrl: 42 }, 'bad_request'],
      [{ originUrl: 'http://origin.saas-test.net' }, 'bad_request'],
      [{ originUrl: 'not a url' }, 'bad_request'],
      [{ originUrl: ORIGIN_URL, keepHost: 'yes' }, 'bad_request'],
      [{ originUrl: ORIGIN_URL, extra: 1 }, 'bad_request'],
      [{ originUrl: 'https://internal.saas-test.net' }, 'preflight_failed'],
      [{ originUrl: 'https://169.254.169.254' }, 'preflight_failed'],
    ];
    for (const [body, error] of bad) {
      const res = await connect(p.id, body);
      expect([res.status, res.body.error, body]).toEqual([400, error, body]);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect(await domainRows(p.hostname)).toEqual([]);
    expect((await purchase(p.id)).connectedDomainId).toBeNull();
  });

  it('answers 404 for an unknown id and for another workspace’s purchase', async () => {
    const p = await buy();
    const other = await purchaseWorkspace(t.server, 'pm_card_visa');
    for (const [id, k] of [
      ['pur_doesnotexist', key],
      ['not-an-id', key],
      [p.id, other.apiKey],
    ]) {
      const res = await connect(id, { originUrl: ORIGIN_URL }, k).expect(404);
      expect(res.body.error).toBe('not_found');
    }
    expect(await domainRows(p.hostname)).toEqual([]);
  });

  it('answers 409 for a purchase that did not complete', async () => {
    const hostname = uniqueDomain('refuse');
    const refused = await request(t.server)
      .post('/v1/domain-purchases')
      .set(auth(key))
      .send({ hostname, registrant: REGISTRANT })
      .expect(502);
    const res = await connect(refused.body.details.purchaseId, { originUrl: ORIGIN_URL }).expect(409);
    expect(res.body).toMatchObject({ error: 'conflict', details: { status: 'refunded' } });
    expect(await domainRows(hostname)).toEqual([]);
  });

  it('answers 402 when the workspace has no active subscription any more', async () => {
    const ws = await purchaseWorkspace(t.server, 'pm_card_visa');
    const p = await buy(uniqueDomain('nocard'), ws.apiKey);
    await request(t.server)
      .delete(`/admin/workspaces/${ws.workspaceId}/payment-method`)
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect((res) => expect(res.status).toBeLessThan(300));
    const res = await connect(p.id, { originUrl: ORIGIN_URL }, ws.apiKey).expect(402);
    expect(res.body.error).toBe('billing_required');
    expect(await domainRows(p.hostname)).toEqual([]);
  });

  it('answers 409 when another workspace connected the hostname, and changes nothing', async () => {
    const p = await buy();
    const other = await purchaseWorkspace(t.server, 'pm_card_visa');
    await request(t.server)
      .post('/v1/domains')
      .set(auth(other.apiKey))
      .send({ hostname: p.hostname, originUrl: ORIGIN_URL })
      .expect(201);
    const before = await records(p.id);
    const res = await connect(p.id, { originUrl: ORIGIN_URL }).expect(409);
    expect(res.body).toMatchObject({ error: 'conflict', details: { hostname: p.hostname, purchaseId: p.id } });
    expect((await domainRows(p.hostname)).map((d) => d.workspace_id)).toEqual([other.workspaceId]);
    expect(await records(p.id)).toEqual(before);
    expect(await purchase(p.id)).toMatchObject({ status: 'completed', connectedDomainId: null });
  });

  it('answers 409 while the purchase uses custom nameservers (the registrar records would not apply)', async () => {
    const p = await buy();
    await request(t.server)
      .put(`/v1/domain-purchases/${p.id}/nameservers`)
      .set(auth(key))
      .send({ nameservers: ['ns1.elsewhere.example', 'ns2.elsewhere.example'] })
      .expect(200);
    const res = await connect(p.id, { originUrl: ORIGIN_URL }).expect(409);
    expect(res.body).toMatchObject({
      error: 'conflict',
      details: { nameservers: ['ns1.elsewhere.example', 'ns2.elsewhere.example'] },
    });
    expect(await domainRows(p.hostname)).toEqual([]);
  });

  it('rolls back a failure after the Domain was created (the registrar refuses the DNS write), then connects on retry', async () => {
    // The registrar holds custom nameservers we were never told of: its DNS write fails after the Domain exists.
    await refuseDnsWritesForNsfailNames((sql) => t.db.query(sql));
    const p = await buy(uniqueDomain('nsfail'));
    const res = await connect(p.id, { originUrl: ORIGIN_URL }).expect(502);
    expect(res.body).toMatchObject({ error: 'registrar_error', details: { purchaseId: p.id } });
    expect(res.body.message).toContain('custom nameservers');
    const [rolledBack] = await domainRows(p.hostname);
    expect(rolledBack).toMatchObject({ deleted: true });
    expect(await domainEvents(rolledBack.id)).toEqual(['domain.created', 'domain.deleted']);
    expect(await purchase(p.id)).toMatchObject({ status: 'completed', connectedDomainId: null, failure: null });
    const row = await t.db.query<{ status: string; step: string }>('select status, step from purchases where id = $1', [
      p.id,
    ]);
    expect(row).toEqual([{ status: 'completed', step: 'completed' }]);
    const purchaseEvents = await t.db.query<{ type: string }>(
      "select type from outbox_events where aggregate_kind = 'purchase' and aggregate_id = $1",
      [p.id],
    );
    expect(purchaseEvents.map((e) => e.type)).toEqual(['domain_purchase.completed']);

    // The customer restores the registrar's nameservers; the next call connects with a Domain of its own.
    await request(t.server)
      .put(`/v1/domain-purchases/${p.id}/nameservers`)
      .set(auth(key))
      .send({ nameservers: [] })
      .expect(200);
    const ok = await connect(p.id, { originUrl: ORIGIN_URL }).expect(200);
    expect(ok.body.domain.id).not.toBe(rolledBack.id);
    expect((await domainRows(p.hostname)).map((d) => [d.id, d.deleted])).toEqual([
      [rolledBack.id, true],
      [ok.body.domain.id, false],
    ]);
    expect(await records(p.id)).toContainEqual({ type: 'CNAME', name: 'www', value: EDGE_TARGET, ttl: 1800 });
  });

  it('a registrar outage mid-connect answers 503 and leaves the step; the sweeper finishes it', async () => {
    const p = await buy(uniqueDomain('down'));
    // The registrar's DNS write fails as an outage would (not a refusal): the step is kept and retried.
    await t.db.query(`create or replace function test_registrar_down() returns trigger language plpgsql as $$
      begin
        if new.hostname like 'down-%' and new.dns_records is distinct from old.dns_records then
          raise exception 'registrar unreachable (test outage)';
        end if;
        return new;
      end $$`);
    await t.db.query(`create trigger test_registrar_down before update on sandbox_registrations
      for each row execute function test_registrar_down()`);
    const res = await connect(p.id, { originUrl: ORIGIN_URL }).expect(503);
    expect(res.body).toMatchObject({ error: 'service_unavailable', details: { purchaseId: p.id, step: 'routing' } });
    const step = async () =>
      (
        await t.db.query<{ status: string; step: string }>('select status, step from purchases where id = $1', [p.id])
      )[0];
    expect(await step()).toEqual({ status: 'completed', step: 'routing' });
    // Meanwhile the purchase is still completed to a reader, and the Domain exists.
    expect(await purchase(p.id)).toMatchObject({ status: 'completed' });
    expect((await domainRows(p.hostname)).filter((d) => !d.deleted)).toHaveLength(1);

    await t.db.query('drop trigger test_registrar_down on sandbox_registrations');
    await eventually(step, (row) => row.step === 'completed', {
      timeoutMs: 30_000,
      everyMs: 200,
      what: 'the connect step to complete once the registrar is back',
    });
    expect(await step()).toEqual({ status: 'completed', step: 'completed' });
    const done = await purchase(p.id);
    expect(done.connectedDomainId).toMatch(/^dom_/);
    expect((await domainRows(p.hostname)).map((d) => [d.id, d.deleted])).toEqual([[done.connectedDomainId, false]]);
    expect(await records(p.id)).toContainEqual({ type: 'A', name: '@', value: EDGE_IP, ttl: 1800 });
    await connect(p.id, { originUrl: ORIGIN_URL }).expect(409);
  });

  it('two simultaneous connects: one 200, one 409, one Domain', async () => {
    const p = await buy();
    const answers = await Promise.all([
      connect(p.id, { originUrl: ORIGIN_URL }),
      connect(p.id, { originUrl: 'https://origin.saas-test.net/other' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    const loser = answers.find((a) => a.status === 409)!;
    expect(loser.body.details.domainId).toBe(winner.body.domain.id);
    const live = (await domainRows(p.hostname)).filter((d) => !d.deleted);
    expect(live.map((d) => d.id)).toEqual([winner.body.domain.id]);
    expect(await purchase(p.id)).toMatchObject({ connectedDomainId: winner.body.domain.id });
  });
});

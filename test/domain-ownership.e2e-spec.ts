import { ownershipChallenge, ownershipKey } from '@app/hostname-rules';
import { RouteStore } from '@app/edge';
import {
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TEST_ENCRYPTION_KEY,
  TestApp,
  WebhookReceiver,
  domainEnv,
  domainZones,
  edgeRequest,
  eventually,
  startDnsServer,
  startTestApp,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

/** A workspace that proves control of a hostname (TXT) takes it over from another. */
describe('claiming a hostname another workspace holds', () => {
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let t: TestApp;

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    receiver = await startWebhookReceiver();
    t = await startTestApp({ env: { ...domainEnv(dns.address), OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  async function workspace(name: string) {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name, paymentMethod: 'pm_card_visa' })
      .expect(201);
    return { id: res.body.workspace.id as string, auth: { authorization: `Bearer ${res.body.apiKey}` } };
  }
  type Workspace = Awaited<ReturnType<typeof workspace>>;
  /** The workspace's webhook endpoint on the receiver at `path`, for one event type. */
  const subscribe = (w: Workspace, path: string, event: string) =>
    request(t.server)
      .post('/v1/webhook-endpoints')
      .set(w.auth)
      .send({ url: `${receiver.url}${path}`, events: [event] })
      .expect(201);
  const connect = (w: Workspace, hostname: string) =>
    request(t.server).post('/v1/domains').set(w.auth).send({ hostname, originUrl: ORIGIN_URL });

  it('answers 409 with a TXT proof, then moves the hostname once the TXT resolves', async () => {
    const [holder, claimer] = [await workspace('holder'), await workspace('claimer')];
    await subscribe(holder, '/holder', 'domain.failed');
    const hostname = 'shop.moving-a.com';
    dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE_TARGET }]);
    const held = (await connect(holder, hostname).expect(201)).body.domain;
    const routes = t.app.get(RouteStore);
    await eventually(
      () => routes.get(hostname),
      (route) => route?.domainId === held.id,
      { timeoutMs: 1_000, everyMs: 25, what: 'the edge route of the new domain' },
    );

    const refused = (await connect(claimer, hostname).expect(409)).body;
    expect(refused.error).toBe('conflict');
    const ownership = refused.details.ownership;
    expect(ownership).toEqual({
      type: 'TXT',
      name: `_custom-domain-challenge.${hostname}`,
      value: expect.stringMatching(/^custom-domain-owner=[A-Za-z0-9_-]{43}$/),
    });
    expect(refused.message).toContain(ownership.value);
    // Stable across retries, and nothing of the holder in it.
    expect((await connect(claimer, hostname).expect(409)).body.details.ownership).toEqual(ownership);
    expect(JSON.stringify(refused)).not.toContain(holder.id);
    expect(JSON.stringify(refused)).not.toContain(held.id);

    // A wrong value (the holder's own proof, say) proves nothing.
    const holderProof = ownershipChallenge(ownershipKey(TEST_ENCRYPTION_KEY), holder.id, hostname);
    dns.setRecords(ownership.name, [{ type: 'TXT', data: holderProof.value }]);
    expect((await connect(claimer, hostname).expect(409)).body.details.ownership).toEqual(ownership);
    expect(
      (await request(t.server).get(`/v1/domains/${held.id}`).set(holder.auth).expect(200)).body.domain.status,
    ).toBe('pending');

    dns.setRecords(ownership.name, [
      { type: 'TXT', data: 'v=spf1 -all' },
      { type: 'TXT', data: ownership.value },
    ]);
    const claimed = (await connect(claimer, hostname).expect(201)).body.domain;
    expect(claimed).toMatchObject({ hostname, status: 'pending' });

    const moved = (await request(t.server).get(`/v1/domains/${held.id}`).set(holder.auth).expect(200)).body.domain;
    expect(moved).toMatchObject({ status: 'failed', statusReason: 'moved_to_another_owner' });
    expect(moved.monitorMessage).toMatch(/Another workspace proved control/);
    const mine = (await request(t.server).get('/v1/domains').query({ hostname }).set(claimer.auth).expect(200)).body;
    expect(mine.domains.map((d: { id: string }) => d.id)).toEqual([claimed.id]);

    await receiver.waitFor(
      (all) => all.some((r) => r.path === '/holder' && r.body.data.domain.id === held.id),
      15_000,
      'domain.failed to the holder',
    );
    const failed = receiver.received('/holder').find((r) => r.body.data.domain.id === held.id)!;
    expect(failed.body).toMatchObject({
      type: 'domain.failed',
      workspaceId: holder.id,
      data: { reason: 'moved_to_another_owner', domain: { status: 'failed' } },
    });

    // The edge forgot the holder's route: the hostname now routes to the claimer's domain.
    await eventually(
      () => routes.get(hostname),
      (route) => route?.domainId === claimed.id,
      { timeoutMs: 15_000, what: 'the edge route of the claimed domain' },
    );

    // The monitor leaves the moved domain alone even though DNS points at the edge.
    await request(t.server).post(`/v1/domains/${held.id}/check`).set(holder.auth).expect(200);
    expect(
      (await request(t.server).get(`/v1/domains/${held.id}`).set(holder.auth).expect(200)).body.domain.status,
    ).toBe('failed');
    // The holder can still delete its failed domain; the claimer's stays.
    await request(t.server).delete(`/v1/domains/${held.id}`).set(holder.auth).expect(200);
    await request(t.server).get(`/v1/domains/${claimed.id}`).set(claimer.auth).expect(200);
  });

  it('never within one workspace, even with the TXT record in place', async () => {
    const w = await workspace('same');
    const hostname = 'shop.moving-b.com';
    await connect(w, hostname).expect(201);
    const proof = ownershipChallenge(ownershipKey(TEST_ENCRYPTION_KEY), w.id, hostname);
    dns.setRecords(proof.name, [{ type: 'TXT', data: proof.value }]);
    const again = (await connect(w, hostname).expect(409)).body;
    expect(again.error).toBe('conflict');
    expect(again.details.ownership).toBeUndefined();
    const live = await t.db.query('select id from domains where hostname = $1 and deleted_at is null', [hostname]);
    expect(live).toHaveLength(1);
  });

  it('works through bulk create too', async () => {
    const [holder, claimer] = [await workspace('bulk-holder'), await workspace('bulk-claimer')];
    const hostname = 'shop.moving-c.com';
    await connect(holder, hostname).expect(201);
    const bulk = () =>
      request(t.server)
        .post('/v1/domains/bulk')
        .set(claimer.auth)
        .send({ domains: [{ hostname, originUrl: ORIGIN_URL }] })
        .expect(200);
    const first = (await bulk()).body.results[0];
    expect(first.status).toBe(409);
    const ownership = first.error.details.ownership;
    expect(ownership.name).toBe(`_custom-domain-challenge.${hostname}`);
    dns.setRecords(ownership.name, [{ type: 'TXT', data: ownership.value }]);
    const second = (await bulk()).body.results[0];
    expect(second).toMatchObject({ status: 201, domain: { hostname } });
  });

  it('two claimers at once, both with valid proofs: exactly one wins', async () => {
    const [holder, c1, c2] = [await workspace('race-h'), await workspace('race-1'), await workspace('race-2')];
    const hostname = 'shop.moving-d.com';
    const held = (await connect(holder, hostname).expect(201)).body.domain;
    const key = ownershipKey(TEST_ENCRYPTION_KEY);
    dns.setRecords(`_custom-domain-challenge.${hostname}`, [
      { type: 'TXT', data: ownershipChallenge(key, c1.id, hostname).value },
      { type: 'TXT', data: ownershipChallenge(key, c2.id, hostname).value },
    ]);
    const answers = await Promise.all([connect(c1, hostname), connect(c2, hostname)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const loser = answers.find((a) => a.status === 409)!;
    expect(loser.body.details.ownership.name).toBe(`_custom-domain-challenge.${hostname}`);
    const winner = answers.find((a) => a.status === 201)!.body.domain;
    const live = await t.db.query<{ id: string }>(
      'select id from domains where hostname = $1 and deleted_at is null and released_at is null',
      [hostname],
    );
    expect(live).toEqual([{ id: winner.id }]);
    const moved = (await request(t.server).get(`/v1/domains/${held.id}`).set(holder.auth).expect(200)).body.domain;
    expect(moved.statusReason).toBe('moved_to_another_owner');
    const failedEvents = await t.db.query(
      `select id from outbox_events where aggregate_id = $1 and type = 'domain.failed'`,
      [held.id],
    );
    expect(failedEvents).toHaveLength(1);
  });

  describe('a hostname deleted while its DNS still points at the edge (the takeover guard)', () => {
    const deletedEvent = (path: string, id: string) =>
      receiver
        .waitFor(
          (all) => all.some((r) => r.path === path && r.body.data.domain.id === id),
          15_000,
          `domain.deleted to ${path}`,
        )
        .then(() => receiver.received(path).find((r) => r.body.data.domain.id === id)!.body);

    it('tells the owner, answers a neutral page, and keeps the hostname from others until proven', async () => {
      const [holder, claimer] = [await workspace('guard-holder'), await workspace('guard-claimer')];
      await subscribe(holder, '/guard-holder', 'domain.deleted');
      const hostname = 'shop.dangling-a.com';
      dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE_TARGET }]);
      const held = (await connect(holder, hostname).expect(201)).body.domain;
      const routes = t.app.get(RouteStore);
      await eventually(
        () => routes.get(hostname),
        (route) => route?.domainId === held.id,
        { timeoutMs: 5_000, everyMs: 25, what: 'the edge route of the new domain' },
      );
      const deletedAt = Date.now();
      await request(t.server).delete(`/v1/domains/${held.id}`).set(holder.auth).expect(200);

      // The former owner is told the record dangles, and until when the name is kept for it.
      const event = await deletedEvent('/guard-holder', held.id);
      expect(event).toMatchObject({
        type: 'domain.deleted',
        data: { takeoverGuard: { reason: 'dns_points_at_edge' } },
      });
      const until = Date.parse(event.data.takeoverGuard.until);
      expect(until - deletedAt).toBeGreaterThan(30 * 86_400_000 - 60_000);
      expect(until - deletedAt).toBeLessThan(30 * 86_400_000 + 60_000);

      // The edge forgets the site: a visitor gets the neutral page, nothing of the former origin.
      await eventually(
        () => edgeRequest('http', { port: t.config.edgeHttpPort, hostname, path: '/' }),
        (res) => res.status === 404,
        { timeoutMs: 15_000, what: 'the edge to stop serving the deleted hostname' },
      ).then((res) => expect(res.body).toContain('No site is connected at this address.'));

      // Another workspace meets the guard: only the TXT proof connects it.
      const refused = (await connect(claimer, hostname).expect(409)).body;
      expect(refused).toMatchObject({
        error: 'conflict',
        details: { hostname, guardedUntil: event.data.takeoverGuard.until, ownership: { type: 'TXT' } },
      });
      expect(refused.message).toContain('disconnected from another workspace');
      expect(JSON.stringify(refused)).not.toContain(holder.id);

      // Its own workspace connects it again as it likes, and deletes it again (a new guard).
      const again = (await connect(holder, hostname).expect(201)).body.domain;
      await request(t.server).delete(`/v1/domains/${again.id}`).set(holder.auth).expect(200);
      await deletedEvent('/guard-holder', again.id);

      dns.setRecords(refused.details.ownership.name, [{ type: 'TXT', data: refused.details.ownership.value }]);
      const claimed = (await connect(claimer, hostname).expect(201)).body.domain;
      expect(claimed).toMatchObject({ hostname, status: 'pending' });
      const guards = await t.db.query<{ id: string; guarded_until: Date | null; released: string | null }>(
        `select id, guarded_until, state->'takeoverGuard'->>'releasedAt' as released from domains
          where hostname = $1 and deleted_at is not null order by created_at`,
        [hostname],
      );
      // Both guards on the name (one per deletion) ended with the proof, each record saying when.
      expect(guards).toHaveLength(2);
      for (const guard of guards) expect(guard).toMatchObject({ guarded_until: null, released: expect.any(String) });
    });

    it('sets no guard when DNS points elsewhere at the deletion', async () => {
      const [holder, other] = [await workspace('moved-away'), await workspace('next-owner')];
      await subscribe(holder, '/moved-away', 'domain.deleted');
      const hostname = 'shop.dangling-b.com';
      dns.setRecords(hostname, [{ type: 'A', data: '203.0.113.9' }]);
      const held = (await connect(holder, hostname).expect(201)).body.domain;
      await request(t.server).delete(`/v1/domains/${held.id}`).set(holder.auth).expect(200);
      const event = await deletedEvent('/moved-away', held.id);
      expect(event.data.takeoverGuard).toBeUndefined();
      await connect(other, hostname).expect(201);
    });
  });
});

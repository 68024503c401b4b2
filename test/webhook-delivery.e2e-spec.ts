import { verifyWebhook } from '@app/webhooks';
import {
  DnsServer,
  ORIGIN_URL,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  independentlyVerify,
  eventually,
  insertOutboxEvents,
  sleep,
  startDnsServer,
  startTestApp,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

describe('webhook delivery (standalone, real receivers on loopback)', () => {
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let key: string;
  let workspaceId: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  async function endpoint(path: string, events: string[] = [], url = `${receiver.url}${path}`) {
    const res = await request(t.server).post('/v1/webhook-endpoints').set(as()).send({ url, events }).expect(201);
    return res.body.endpoint as { id: string; secret: string };
  }
  const deliveries = async (endpointId: string, query = '') =>
    (await request(t.server).get(`/v1/webhook-endpoints/${endpointId}/deliveries${query}`).set(as()).expect(200)).body
      .deliveries as any[];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dns = await startDnsServer({
      ...domainZones(),
      'hooks.receiver-test.com': [{ type: 'A', data: '127.0.0.1' }],
      'private.receiver-test.com': [{ type: 'A', data: '10.1.2.3' }],
    });
    t = await startTestApp({ env: { ...domainEnv(dns.address), OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' } });
    ({ apiKey: key, workspaceId } = await createWorkspaceVia(t.server));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  it('POSTs domain.created, signed over the raw body, to matching enabled endpoints only', async () => {
    const all = await endpoint('/all');
    const deletedOnly = await endpoint('/deleted', ['domain.deleted']);
    const off = await endpoint('/off');
    await request(t.server).patch(`/v1/webhook-endpoints/${off.id}`).set(as()).send({ enabled: false }).expect(200);

    const created = await request(t.server)
      .post('/v1/domains')
      .set(as())
      .send({ hostname: 'shop.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    await receiver.waitFor((r) => r.some((w) => w.path === '/all'), 10_000, 'domain.created at /all');
    const [hook] = receiver.received('/all');

    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toMatch(/^custom-domains-webhooks\//);
    expect(hook.headers['x-service-event-type']).toBe('domain.created');
    expect(hook.headers['x-service-event-id']).toBe(hook.body.id);
    expect(hook.headers['x-service-delivery-id']).toMatch(/^whd_/);
    const signature = hook.headers['x-service-signature'] as string;
    expect(signature).toMatch(/^t=\d+,sha256=[0-9a-f]{64}$/);
    expect(independentlyVerify(hook.raw, signature, all.secret)).toBe(true);
    expect(independentlyVerify(hook.raw, signature, deletedOnly.secret)).toBe(false);
    expect(verifyWebhook(hook.raw, signature, all.secret).id).toBe(hook.body.id);

    expect(Object.keys(hook.body)).toEqual(['id', 'type', 'createdAt', 'timestamp', 'workspaceId', 'data']);
    expect(hook.body).toMatchObject({
      type: 'domain.created',
      workspaceId,
      timestamp: Number(/t=(\d+)/.exec(signature)?.[1]),
    });
    expect(hook.body.id).toMatch(/^evt_/);
    expect(hook.body.data.domain).toEqual(created.body.domain);
    const stored = await request(t.server).get(`/v1/events/${hook.body.id}`).set(as()).expect(200);
    expect(stored.body.event).toMatchObject({ id: hook.body.id, type: 'domain.created', data: hook.body.data });
    expect(stored.body.event.createdAt).toBe(hook.body.createdAt);

    await request(t.server).delete(`/v1/domains/${created.body.domain.id}`).set(as()).expect(200);
    await receiver.waitFor((r) => r.filter((w) => w.body?.type === 'domain.deleted').length === 2);
    expect(receiver.received('/deleted').map((w) => w.body.type)).toEqual(['domain.deleted']);
    expect(receiver.received('/off')).toEqual([]);
    const [row] = await deliveries(all.id, `?eventId=${hook.body.id}`);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, nextAttemptAt: null, eventType: 'domain.created' });
    expect(row.lastAttempt).toMatchObject({ statusCode: 200, error: null });
    expect((await deliveries(off.id)).length).toBe(0);
  });

  it('filters by event type: each endpoint gets exactly the types it asked for', async () => {
    const purchases = await endpoint('/purchases', ['domain_purchase.completed', 'domain_purchase.failed']);
    const failures = await endpoint('/failures', ['domain.failed', 'domain_purchase.failed']);
    const types = ['domain.verified', 'domain_purchase.completed', 'domain.failed', 'domain_purchase.failed'];
    const ids = await insertOutboxEvents(
      t,
      workspaceId,
      types.map((type) => ({ type })),
    );
    await receiver.waitFor((r) => r.filter((w) => ids.includes(w.body?.id)).length >= 4 + 2 + 2);
    // Time must pass: the check below is that no other type arrives, and nothing signals its absence.
    await sleep(300);
    const got = (path: string) =>
      receiver
        .received(path)
        .map((w) => w.body.type)
        .sort();
    expect(got('/purchases')).toEqual(['domain_purchase.completed', 'domain_purchase.failed']);
    expect(got('/failures')).toEqual(['domain.failed', 'domain_purchase.failed']);
    expect(
      receiver
        .received('/all')
        .filter((w) => ids.includes(w.body.id))
        .map((w) => w.body.type),
    ).toEqual(expect.arrayContaining(types));
    expect((await deliveries(purchases.id)).length).toBe(2);
    expect((await deliveries(failures.id)).length).toBe(2);
  });

  it('records a failed attempt, schedules the retry 30 s later, and replays on request', async () => {
    let status = 500;
    receiver.answer = (w) => (w.path === '/flaky' ? { status, body: 'boom\n  down' } : { status: 200 });
    const flaky = await endpoint('/flaky', ['domain.expired']);
    const [eventId] = await insertOutboxEvents(t, workspaceId, [{ type: 'domain.expired' }]);
    const [pending] = await eventually(
      () => deliveries(flaky.id),
      (d) => d[0]?.attempts === 1,
    );
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, eventId, deliveredAt: null });
    expect(pending.lastAttempt).toMatchObject({ statusCode: 500, error: 'HTTP 500: boom down' });
    expect(Date.parse(pending.nextAttemptAt) - Date.parse(pending.firstAttemptAt)).toBe(30_000);

    status = 200;
    const replay = await request(t.server)
      .post(`/v1/events/${eventId}/replay`)
      .set(as())
      .send({ endpointId: flaky.id })
      .expect(202);
    expect(replay.body.deliveries).toEqual([expect.objectContaining({ endpointId: flaky.id, status: 'pending' })]);
    const [done] = await eventually(
      () => deliveries(flaky.id),
      (d) => d[0]?.status === 'delivered',
    );
    expect(done).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastAttempt: expect.objectContaining({ statusCode: 200 }),
    });
    expect(receiver.received('/flaky').map((w) => w.body.id)).toEqual([eventId, eventId]);
  });

  it('resolves host names, checks every address and connects to the checked one; refusals are recorded', async () => {
    const byName = await endpoint(
      '/by-name',
      ['domain.verified'],
      `http://hooks.receiver-test.com:${receiver.port}/by-name`,
    );
    const privateName = await endpoint('/x', ['domain.verified'], 'http://private.receiver-test.com/x');
    // Refused at creation now; a row stored before that rule still fails each delivery, naming its field.
    const notUrl = await endpoint('/y', ['domain.verified']);
    await t.db.query(`update webhook_endpoints set url = 'not a url' where id = $1`, [notUrl.id]);
    await insertOutboxEvents(t, workspaceId, [{ type: 'domain.verified' }]);
    await receiver.waitFor((r) => r.some((w) => w.path === '/by-name'));
    expect(receiver.received('/by-name')[0].headers.host).toBe(`hooks.receiver-test.com:${receiver.port}`);
    const [blocked] = await eventually(
      () => deliveries(privateName.id),
      (d) => d[0]?.attempts === 1,
    );
    expect(blocked.status).toBe('pending');
    expect(blocked.lastAttempt.error).toMatch(/10\.1\.2\.3.*private network/);
    const [invalid] = await eventually(
      () => deliveries(notUrl.id),
      (d) => d[0]?.attempts === 1,
    );
    expect(invalid.lastAttempt.error).toBe('url must be an absolute http or https URL, e.g. https://app.example.com');
    expect((await deliveries(byName.id))[0].status).toBe('delivered');
  });

  it('keeps a slow endpoint from delaying another, and gives up on an attempt after 10 s', async () => {
    receiver.answer = (w) => (w.path === '/slow' ? { status: 200, delayMs: 12_000 } : { status: 200 });
    const slow = await endpoint('/slow', ['domain.monitor_updated']);
    await endpoint('/fast', ['domain.monitor_updated']);
    const started = Date.now();
    const ids = await insertOutboxEvents(
      t,
      workspaceId,
      Array.from({ length: 40 }, () => ({ type: 'domain.monitor_updated' })),
    );
    await receiver.waitFor((r) => r.filter((w) => w.path === '/fast').length === 40, 8_000, 'all 40 at /fast');
    // Well before the slow endpoint's first answer (12 s), which a shared lane would have waited for.
    expect(Math.max(...receiver.received('/fast').map((w) => w.at)) - started).toBeLessThan(8_000);
    expect(
      receiver
        .received('/fast')
        .map((w) => w.body.id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(receiver.received('/slow').length).toBeLessThanOrEqual(8);

    const timedOut = await eventually(
      () => deliveries(slow.id, '?limit=100'),
      (d) => d.filter((x) => x.attempts === 1).length >= 8,
      { timeoutMs: 14_000 },
    );
    const failed = timedOut.filter((x) => x.attempts === 1);
    expect(failed[0].lastAttempt.error).toBe('timeout: no response within 10 s');
    expect(failed[0].lastAttempt.durationMs).toBeGreaterThanOrEqual(9_900);
  }, 40_000);

  it('exposes delivery metrics', async () => {
    const metrics = await request(t.server).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="http_error"\} [1-9]/);
    expect(metrics.text).toMatch(/webhook_delivery_seconds_bucket/);
    expect(metrics.text).toMatch(/webhook_event_to_delivery_seconds_count [1-9]/);
  });
});

import {
  DnsServer,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  eventually,
  independentlyVerify,
  startDnsServer,
  startTestApp,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

describe('POST /v1/webhook-endpoints/{id}/test (real receiver on loopback)', () => {
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let key: string;
  let otherKey: string;
  const as = (k = key) => ({ authorization: `Bearer ${k}` });

  async function endpoint(path: string, events: string[] = [], k = key) {
    const res = await request(t.server)
      .post('/v1/webhook-endpoints')
      .set(as(k))
      .send({ url: `${receiver.url}${path}`, events })
      .expect(201);
    return res.body.endpoint as { id: string; secret: string };
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' } });
    ({ apiKey: key } = await createWorkspaceVia(t.server));
    ({ apiKey: otherKey } = await createWorkspaceVia(t.server));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  it('delivers a signed webhook_endpoint.test event to that endpoint only, whatever its filter', async () => {
    const target = await endpoint('/target', ['domain.deleted']);
    const sibling = await endpoint('/sibling');

    const res = await request(t.server).post(`/v1/webhook-endpoints/${target.id}/test`).set(as()).expect(202);
    expect(res.body.event).toMatchObject({ type: 'webhook_endpoint.test' });
    expect(res.body.event.id).toMatch(/^evt_/);

    await receiver.waitFor((r) => r.some((w) => w.path === '/target'), 15_000, 'test event at /target');
    const [hook] = receiver.received('/target');
    expect(hook.headers['x-service-event-type']).toBe('webhook_endpoint.test');
    expect(hook.body).toMatchObject({
      id: res.body.event.id,
      type: 'webhook_endpoint.test',
      data: { test: true, endpointId: target.id },
    });
    const signature = hook.headers['x-service-signature'] as string;
    expect(independentlyVerify(hook.raw, signature, target.secret)).toBe(true);
    expect(independentlyVerify(hook.raw, signature, sibling.secret)).toBe(false);

    // The receiver has the request before the worker has its answer and records the delivery: wait for that.
    const deliveries = await eventually(
      () =>
        request(t.server)
          .get(`/v1/webhook-endpoints/${target.id}/deliveries?eventId=${res.body.event.id}`)
          .set(as())
          .expect(200),
      (r) => r.body.deliveries.every((d: { status: string }) => d.status !== 'pending'),
      { what: 'the test delivery recorded', timeoutMs: 15_000 },
    );
    expect(deliveries.body.deliveries).toEqual([
      expect.objectContaining({ status: 'delivered', eventType: 'webhook_endpoint.test', endpointId: target.id }),
    ]);
    const siblingDeliveries = await request(t.server)
      .get(`/v1/webhook-endpoints/${sibling.id}/deliveries?eventId=${res.body.event.id}`)
      .set(as())
      .expect(200);
    expect(siblingDeliveries.body.deliveries).toEqual([]);
    expect(receiver.received('/sibling')).toEqual([]);
  });

  it('answers 404 for an unknown id and for another workspace’s endpoint, and 401 without a key', async () => {
    const foreign = await endpoint('/foreign', [], otherKey);
    const unknown = await request(t.server).post('/v1/webhook-endpoints/whe_nope/test').set(as()).expect(404);
    expect(unknown.body).toMatchObject({ error: 'not_found' });
    const other = await request(t.server).post(`/v1/webhook-endpoints/${foreign.id}/test`).set(as()).expect(404);
    expect(other.body).toMatchObject({ error: 'not_found' });
    await request(t.server).post(`/v1/webhook-endpoints/${foreign.id}/test`).expect(401);
    expect(receiver.received('/foreign')).toEqual([]);
  });
});

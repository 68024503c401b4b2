import {
  DnsServer,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  eventually,
  insertOutboxEvents,
  startDnsServer,
  startTestApp,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

describe('webhook deliveries and the SSRF rules (no OUTBOUND_ALLOW_CIDRS)', () => {
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dns = await startDnsServer({
      'loopback.receiver-test.com': [{ type: 'A', data: '127.0.0.1' }],
      'mixed.receiver-test.com': [
        { type: 'A', data: '93.184.216.34' },
        { type: 'A', data: '192.168.7.7' },
      ],
    });
    t = await startTestApp({ env: { DNS_RESOLVERS: dns.address } });
    ({ apiKey: key, workspaceId } = await createWorkspaceVia(t.server));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  it('fails each blocked destination with the reason recorded, and never connects', async () => {
    const urls: [string, RegExp][] = [
      [`${receiver.url}/direct`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::1]:${receiver.port}/v6`, /::1 is a loopback address/],
      [
        `http://loopback.receiver-test.com:${receiver.port}/by-name`,
        /resolves to a blocked address: 127\.0\.0\.1 is a loopback address/,
      ],
      ['http://mixed.receiver-test.com/one-private', /192\.168\.7\.7.*private network/],
      ['http://169.254.169.254/latest/meta-data', /link-local/],
      [`http://localhost:${receiver.port}/name`, /localhost is an internal name/],
      ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
    ];
    const ids: string[] = [];
    for (const [url] of urls) {
      const res = await request(t.server)
        .post('/v1/webhook-endpoints')
        .set('authorization', `Bearer ${key}`)
        .send({ url, events: [] })
        .expect(201);
      ids.push(res.body.endpoint.id);
    }
    await insertOutboxEvents(t, workspaceId, [{ type: 'domain.created' }]);
    for (const [i, id] of ids.entries()) {
      const delivery = await eventually(
        async () =>
          (
            await request(t.server)
              .get(`/v1/webhook-endpoints/${id}/deliveries`)
              .set('authorization', `Bearer ${key}`)
              .expect(200)
          ).body.deliveries[0],
        (first) => Boolean(first?.attempts),
        { timeoutMs: 5_000, everyMs: 25, what: `a first attempt to ${urls[i][0]}` },
      );
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
      expect(delivery.lastAttempt.statusCode).toBeNull();
      expect(delivery.lastAttempt.error).toMatch(/^url is not allowed: /);
      expect(delivery.lastAttempt.error).toMatch(urls[i][1]);
    }
    expect(receiver.requests).toHaveLength(0);
    const metrics = await request(t.server).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="blocked"\} 7/);
  });
});

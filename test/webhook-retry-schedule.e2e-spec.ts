import { DeliveryWorker, attemptOffsets, verifyWebhook } from '@app/webhooks';
import {
  ManualClock,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  eventually,
  insertOutboxEvents,
  startTestAppWithClock,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** The schedule as README states it, written out independently of the code. */
const EXPECTED_OFFSETS = [
  0,
  30_000,
  30_000 + MIN,
  30_000 + MIN + 5 * MIN,
  30_000 + MIN + 5 * MIN + 30 * MIN,
  30_000 + MIN + 5 * MIN + 30 * MIN + 2 * HOUR,
  30_000 + MIN + 5 * MIN + 30 * MIN + 2 * HOUR + 6 * HOUR,
  ...[1, 2, 3, 4, 5, 6].map((d) => 30_000 + MIN + 5 * MIN + 30 * MIN + 2 * HOUR + 6 * HOUR + d * DAY),
  7 * DAY,
];

describe('retry schedule with an injected clock (no real waiting)', () => {
  const clock = new ManualClock(new Date(T0));
  let receiver: WebhookReceiver;
  let t: TestApp;
  let worker: DeliveryWorker;
  let key: string;
  let workspaceId: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  async function endpoint(path: string) {
    const res = await request(t.server)
      .post('/v1/webhook-endpoints')
      .set(as())
      .send({ url: `${receiver.url}${path}`, events: ['domain.failed'] })
      .expect(201);
    return res.body.endpoint as { id: string; secret: string };
  }
  const row = async (endpointId: string) =>
    (await t.db.query('select * from webhook_deliveries where endpoint_id = $1', [endpointId]))[0];
  const relayed = (endpointId: string) =>
    eventually(() => row(endpointId), Boolean, { timeoutMs: 2_000, everyMs: 20, what: 'the delivery row' });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer = () => ({ status: 503, body: 'maintenance' });
    t = await startTestAppWithClock(clock, { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' });
    worker = t.app.get(DeliveryWorker);
    ({ apiKey: key, workspaceId } = await createWorkspaceVia(t.server));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('matches the documented offsets', () => {
    expect(attemptOffsets()).toEqual(EXPECTED_OFFSETS);
  });

  it('retries at 30s, 1m, 5m, 30m, 2h, 6h, then daily, last at 7 days, then dead-letters', async () => {
    const ep = await endpoint('/down');
    const [eventId] = await insertOutboxEvents(t, workspaceId, [{ type: 'domain.failed' }]);
    await relayed(ep.id);
    await worker.runOnce();
    const hits = () => receiver.received('/down');
    expect(hits()).toHaveLength(1);

    for (let n = 1; n < EXPECTED_OFFSETS.length; n++) {
      const due = T0 + EXPECTED_OFFSETS[n];
      const before = await row(ep.id);
      expect(before).toMatchObject({ status: 'pending', attempts: n, last_status_code: 503 });
      expect(before.next_attempt_at.getTime()).toBe(due);
      expect(before.last_error).toBe('HTTP 503: maintenance');

      clock.set(due - 1_000);
      await worker.runOnce();
      expect(hits()).toHaveLength(n);

      clock.set(due);
      await worker.runOnce();
      expect(hits()).toHaveLength(n + 1);
      const hit = hits()[n];
      const signature = hit.headers['x-service-signature'] as string;
      expect(signature.startsWith(`t=${due / 1000},`)).toBe(true);
      expect(verifyWebhook(hit.raw, signature, ep.secret, { now: due / 1000 })).toMatchObject({
        id: eventId,
        timestamp: due / 1000,
      });
    }

    const dead = await row(ep.id);
    expect(dead).toMatchObject({ status: 'dead_lettered', attempts: 14, claim_id: null });
    expect(dead.first_attempt_at.getTime()).toBe(T0);
    expect(dead.dead_lettered_at.getTime()).toBe(T0 + 7 * DAY);
    clock.advance(3 * DAY);
    await worker.runOnce();
    expect(hits()).toHaveLength(14);

    const listed = await request(t.server)
      .get(`/v1/webhook-endpoints/${ep.id}/deliveries?status=dead_lettered`)
      .set(as())
      .expect(200);
    expect(listed.body.deliveries).toEqual([
      expect.objectContaining({
        eventId,
        status: 'dead_lettered',
        attempts: 14,
        nextAttemptAt: null,
        deadLetteredAt: new Date(T0 + 7 * DAY).toISOString(),
        lastAttempt: expect.objectContaining({ statusCode: 503, error: 'HTTP 503: maintenance' }),
      }),
    ]);

    // A dead letter is replayable: due at once, with a fresh 7-day window.
    receiver.answer = () => ({ status: 200 });
    await request(t.server).post(`/v1/events/${eventId}/replay`).set(as()).send({}).expect(202);
    await worker.runOnce();
    expect(hits()).toHaveLength(15);
    expect(await row(ep.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect((await row(ep.id)).first_attempt_at.getTime()).toBe(clock.now());
  });

  it('dead-letters, unsent, the due deliveries of an endpoint disabled since', async () => {
    receiver.answer = () => ({ status: 500 });
    const ep = await endpoint('/disabled-later');
    await insertOutboxEvents(t, workspaceId, [{ type: 'domain.failed' }]);
    await relayed(ep.id);
    await worker.runOnce();
    expect(receiver.received('/disabled-later')).toHaveLength(1);
    await request(t.server).patch(`/v1/webhook-endpoints/${ep.id}`).set(as()).send({ enabled: false }).expect(200);
    clock.advance(30_000);
    await worker.runOnce();
    expect(receiver.received('/disabled-later')).toHaveLength(1);
    expect(await row(ep.id)).toMatchObject({
      status: 'dead_lettered',
      attempts: 1,
      last_error: 'endpoint disabled: not sent',
    });
  });
});

import { SecretBox } from '@app/crypto';
import { DeliveryWorker, verifyWebhook } from '@app/webhooks';
import {
  ManualClock,
  ReceivedWebhook,
  TEST_ENCRYPTION_KEY,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  eventually,
  eventuallyDefined,
  insertOutboxEvents,
  startTestAppWithClock,
  startWebhookReceiver,
} from '@test/support';
import request from 'supertest';

const DAY_MS = 24 * 60 * 60 * 1000;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * Secret rotation without a gap: a real receiver on loopback that knows one
 * secret at a time and answers 401 to anything it cannot verify. The webhook clock is injected, so
 * the 24 h overlap ends without waiting.
 */
describe('webhook secret rotation with an overlap', () => {
  const clock = new ManualClock(new Date());
  let receiver: WebhookReceiver;
  let t: TestApp;
  let worker: DeliveryWorker;
  let key: string;
  let workspaceId: string;
  /** The one secret the receiver knows now. */
  let known = '';
  const as = () => ({ authorization: `Bearer ${key}` });
  const sha256Count = (hook: ReceivedWebhook) =>
    (hook.headers['x-service-signature'] as string).split(',').filter((p) => p.startsWith('sha256=')).length;
  const verifies = (hook: ReceivedWebhook, secret: string) => {
    try {
      verifyWebhook(hook.raw, hook.headers['x-service-signature'] as string, secret, { now: unix(clock.date()) });
      return true;
    } catch {
      return false;
    }
  };
  const rotate = (id: string, body?: object) =>
    request(t.server)
      .post(`/v1/webhook-endpoints/${id}/rotate-secret`)
      .set(as())
      .send(body ?? {});
  const row = async (endpointId: string) =>
    (
      await t.db.query<{ secret_sealed: string; previous_secret_sealed: string | null; previous_until: Date | null }>(
        `select secret_sealed, previous_secret_sealed, previous_secret_expires_at as previous_until
         from webhook_endpoints where id = $1`,
        [endpointId],
      )
    )[0];
  /** The delivery of an event to the endpoint at `path` (every endpoint of the workspace gets one). */
  const delivery = async (eventId: string, path: string) =>
    (
      await t.db.query<{ status: string; last_status_code: number | null }>(
        `select d.status, d.last_status_code from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
         where d.event_id = $1 and e.url = $2`,
        [eventId, `${receiver.url}${path}`],
      )
    )[0];

  /** One event through the relay and one delivery attempt: what the receiver got, and the outcome. */
  async function deliverOne(path: string): Promise<{ hook: ReceivedWebhook; status: string; code: number | null }> {
    const [eventId] = await insertOutboxEvents(t, workspaceId, [{ type: 'domain.verified' }]);
    const every = { timeoutMs: 15_000, everyMs: 20 };
    await eventually(() => delivery(eventId, path), Boolean, { ...every, what: `the delivery row of ${eventId}` });
    const hook = await eventuallyDefined(
      async () => {
        await worker.runOnce();
        return receiver.received(path).find((r) => r.body?.id === eventId);
      },
      { ...every, what: `event ${eventId} at ${path}` },
    );
    const d = await eventually(
      () => delivery(eventId, path),
      (row) => row.last_status_code !== null,
      { ...every, what: `the outcome of ${eventId} recorded` },
    );
    return { hook, status: d.status, code: d.last_status_code };
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer = (hook) => ({ status: verifies(hook, known) ? 200 : 401 });
    t = await startTestAppWithClock(clock, { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' });
    worker = t.app.get(DeliveryWorker);
    ({ apiKey: key, workspaceId } = await createWorkspaceVia(t.server));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('signs with both secrets for 24 h by default, so a receiver knowing either one keeps accepting, then only the new one', async () => {
    const created = await request(t.server)
      .post('/v1/webhook-endpoints')
      .set(as())
      .send({ url: `${receiver.url}/hook`, events: ['domain.verified'] })
      .expect(201);
    const endpoint = created.body.endpoint as { id: string; secret: string; previousSecretExpiresAt: string | null };
    expect(endpoint.previousSecretExpiresAt).toBeNull();
    const oldSecret = endpoint.secret;
    known = oldSecret;

    const before = await deliverOne('/hook');
    expect(sha256Count(before.hook)).toBe(1);
    expect(before.status).toBe('delivered');

    const rotatedAt = clock.date();
    const rotated = await rotate(endpoint.id).expect(200);
    const newSecret = rotated.body.endpoint.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.endpoint.previousSecretExpiresAt).toBe(new Date(rotatedAt.getTime() + DAY_MS).toISOString());
    // Both secrets stay sealed at rest; reads never show either.
    const sealed = await row(endpoint.id);
    const box = new SecretBox(TEST_ENCRYPTION_KEY);
    expect(box.open(sealed.secret_sealed)).toBe(newSecret);
    expect(box.open(sealed.previous_secret_sealed!)).toBe(oldSecret);
    expect(JSON.stringify(sealed)).not.toContain(oldSecret);
    const read = await request(t.server).get(`/v1/webhook-endpoints/${endpoint.id}`).set(as()).expect(200);
    expect(read.body.endpoint.secret).toBeUndefined();
    expect(read.body.endpoint.previousSecretExpiresAt).toBe(rotated.body.endpoint.previousSecretExpiresAt);

    // The receiver has not deployed the new secret yet: it still verifies with the old one.
    const overlapOld = await deliverOne('/hook');
    expect(sha256Count(overlapOld.hook)).toBe(2);
    expect(overlapOld.status).toBe('delivered');
    expect(verifies(overlapOld.hook, newSecret)).toBe(true);

    // Deployed: it knows only the new secret now, at any time during the overlap.
    known = newSecret;
    clock.advance(DAY_MS - 60_000);
    const overlapNew = await deliverOne('/hook');
    expect(sha256Count(overlapNew.hook)).toBe(2);
    expect(overlapNew.status).toBe('delivered');
    expect(verifies(overlapNew.hook, oldSecret)).toBe(true);

    // The overlap is over: one signature, by the new secret only.
    clock.advance(60_000);
    const after = await deliverOne('/hook');
    expect(sha256Count(after.hook)).toBe(1);
    expect(after.status).toBe('delivered');
    expect(verifies(after.hook, oldSecret)).toBe(false);

    // A receiver still on the old secret now refuses it (and the delivery is retried, not lost).
    known = oldSecret;
    const stale = await deliverOne('/hook');
    expect([stale.status, stale.code]).toEqual(['pending', 401]);
    known = newSecret;
  });

  it('takes the overlap per rotation: a short one ends on time, 0 ends the old secret at once', async () => {
    const created = await request(t.server)
      .post('/v1/webhook-endpoints')
      .set(as())
      .send({ url: `${receiver.url}/short`, events: ['domain.verified'] })
      .expect(201);
    const id = created.body.endpoint.id as string;
    const first = created.body.endpoint.secret as string;

    const rotatedAt = clock.date();
    const short = await rotate(id, { overlapSeconds: 90 }).expect(200);
    const second = short.body.endpoint.secret as string;
    expect(short.body.endpoint.previousSecretExpiresAt).toBe(new Date(rotatedAt.getTime() + 90_000).toISOString());
    known = first;
    const during = await deliverOne('/short');
    expect([sha256Count(during.hook), during.status]).toEqual([2, 'delivered']);
    clock.advance(90_000);
    known = second;
    const ended = await deliverOne('/short');
    expect([sha256Count(ended.hook), ended.status]).toEqual([1, 'delivered']);
    expect(verifies(ended.hook, first)).toBe(false);

    // Rotating during an overlap keeps only the secret it replaces; 0 keeps none.
    const now = await rotate(id, { overlapSeconds: 0 }).expect(200);
    const third = now.body.endpoint.secret as string;
    expect(now.body.endpoint.previousSecretExpiresAt).toBeNull();
    expect((await row(id)).previous_secret_sealed).toBeNull();
    known = third;
    const immediate = await deliverOne('/short');
    expect([sha256Count(immediate.hook), immediate.status]).toEqual([1, 'delivered']);
    expect(verifies(immediate.hook, second)).toBe(false);
  });

  it('answers 400 for a bad overlap and 404 for an unknown or foreign endpoint', async () => {
    const created = await request(t.server)
      .post('/v1/webhook-endpoints')
      .set(as())
      .send({ url: `${receiver.url}/bad`, events: [] })
      .expect(201);
    const id = created.body.endpoint.id as string;
    const sealedBefore = (await row(id)).secret_sealed;
    for (const body of [
      { overlapSeconds: -1 },
      { overlapSeconds: 604_801 },
      { overlapSeconds: 1.5 },
      { overlapSeconds: '60' },
      { expiresInSeconds: 60 },
    ]) {
      const res = await rotate(id, body);
      expect([res.status, res.body.error, body]).toEqual([400, 'bad_request', body]);
    }
    expect(await row(id)).toMatchObject({ secret_sealed: sealedBefore, previous_secret_sealed: null });
    await rotate(id, { overlapSeconds: 604_800 }).expect(200);
    // No body at all is the default overlap, as before this change.
    await request(t.server).post(`/v1/webhook-endpoints/${id}/rotate-secret`).set(as()).expect(200);

    await rotate('whe_doesnotexist').expect(404);
    const other = await createWorkspaceVia(t.server);
    await request(t.server)
      .post(`/v1/webhook-endpoints/${id}/rotate-secret`)
      .set({ authorization: `Bearer ${other.apiKey}` })
      .send({})
      .expect(404);
  });
});

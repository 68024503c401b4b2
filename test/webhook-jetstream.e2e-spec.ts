import { DEFAULT_MEMBERSHIP } from '@app/actors';
import { Bus } from '@app/bus';
import { OUTBOX_QUEUED_SUBJECT, eventSubject, streamName } from '@app/webhooks';
import {
  TEST_NATS_URL,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  eventually,
  insertOutboxEvents,
  sleep,
  startTestApp,
  startWebhookReceiver,
  uniqueSubjectPrefix,
} from '@test/support';
import { AckPolicy, JsMsg, NatsConnection, connect } from 'nats';
import request from 'supertest';

describe('the relay on NATS: JetStream stream EVENTS, each event once', () => {
  const prefix = uniqueSubjectPrefix();
  const stream = streamName(prefix);
  let nc: NatsConnection;
  let receiver: WebhookReceiver;
  let t: TestApp;
  const received: { subject: string; msgId?: string; body: any }[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    nc = await connect({ servers: TEST_NATS_URL, name: 'jetstream-test-subscriber' });
    t = await startTestApp({
      env: { NATS_URL: TEST_NATS_URL, NATS_SUBJECT_PREFIX: prefix, OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    if (nc) {
      const jsm = await nc.jetstreamManager();
      for (const name of [stream, `KV_${DEFAULT_MEMBERSHIP.bucket}_${prefix}`]) {
        await jsm.streams.delete(name).catch(() => undefined);
      }
      await nc.close();
    }
  });

  it('creates the stream at start, publishes every event once with msgID = event id, and dedups a re-relay', async () => {
    const jsm = await nc.jetstreamManager();
    const info = await eventually(() => jsm.streams.info(stream), Boolean, { timeoutMs: 10_000, what: 'the stream' });
    expect(info.config.subjects).toEqual([`${prefix}.events.>`]);
    expect(info.config.duplicate_window).toBeGreaterThanOrEqual(60 * 1e9);

    // An internal service: a durable consumer that acknowledges what it processed.
    await jsm.consumers.add(stream, { durable_name: 'internal-service', ack_policy: AckPolicy.Explicit });
    const consumer = await nc.jetstream().consumers.get(stream, 'internal-service');
    const messages = await consumer.consume();
    void (async () => {
      for await (const m of messages as AsyncIterable<JsMsg>) {
        received.push({ subject: m.subject, msgId: m.headers?.get('Nats-Msg-Id'), body: m.json() });
        m.ack();
      }
    })();

    const { apiKey, workspaceId } = await createWorkspaceVia(t.server);
    await request(t.server)
      .post('/v1/webhook-endpoints')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ url: `${receiver.url}/hook`, events: [] })
      .expect(201);
    const types = ['domain.created', 'domain.verified', 'domain_purchase.completed', 'domain.deleted'];
    const ids = await insertOutboxEvents(
      t,
      workspaceId,
      Array.from({ length: 40 }, (_, i) => ({ type: types[i % types.length] })),
    );
    await eventually(
      () => received.length,
      (count) => count >= ids.length,
      { timeoutMs: 15_000, everyMs: 50, what: 'every event on the stream' },
    );
    await receiver.waitFor((r) => r.length >= ids.length);

    // A relay that dies after publishing but before committing sends its batch again: the
    // watermark moved back before the last 10 events, as if their pass had never committed.
    const again = ids.slice(-10);
    const [{ last }] = await t.db.query('select max(seq) as last from outbox_events');
    await t.db.query(
      `update outbox_relay_mark set (xid, seq) = (select xid, seq - 1 from outbox_events where id = $1)`,
      [again[0]],
    );
    t.app.get(Bus).publish(OUTBOX_QUEUED_SUBJECT, {});
    await eventually(
      async () => (await t.db.query('select seq from outbox_relay_mark'))[0].seq,
      (seq) => seq === last,
      { timeoutMs: 10_000, everyMs: 50, what: 'the re-relay (the watermark back at the last event)' },
    );
    // Time must pass: what is checked next is an absence (JetStream dropped the duplicates), and
    // nothing signals that a duplicate will not arrive.
    await sleep(500);
    await messages.close();

    expect(received.map((r) => r.body.id).sort()).toEqual([...ids].sort());
    for (const r of received) {
      expect(r.msgId).toBe(r.body.id);
      expect(r.subject).toBe(eventSubject(prefix, workspaceId, r.body.type));
      expect(r.subject).toBe(`${prefix}.events.${workspaceId}.${r.body.type}`);
      expect(Object.keys(r.body)).toEqual(['id', 'type', 'createdAt', 'timestamp', 'workspaceId', 'data']);
    }
    expect((await jsm.streams.info(stream)).state.messages).toBe(ids.length);
    // And the endpoint got each event once: a re-relay creates no second delivery.
    expect(
      receiver
        .received('/hook')
        .map((w) => w.body.id)
        .sort(),
    ).toEqual([...ids].sort());
    const perEvent = await t.db.query('select count(*)::int as n from webhook_deliveries group by event_id');
    expect(perEvent.every((r: { n: number }) => r.n === 1)).toBe(true);
  });
});

import { DEFAULT_MEMBERSHIP } from '@app/actors';
import { EDGE_INVALIDATE_SUBJECT } from '@app/kernel';
import { EVENT_TYPES, streamName } from '@app/webhooks';
import { Parser } from '@asyncapi/parser';
import {
  DnsServer,
  ORIGIN_URL,
  REGISTRANT,
  domainEnv,
  domainZones,
  startDnsServer,
  TEST_NATS_URL,
  TestApp,
  createWorkspaceVia,
  eventually,
  purchaseWorkspace,
  startTestApp,
  uniqueDomain,
  uniqueSubjectPrefix,
} from '@test/support';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { AckPolicy, DeliverPolicy, JsMsg, NatsConnection, connect } from 'nats';
import request from 'supertest';

describe('GET /asyncapi.json: the NATS event subjects, checked against what arrives on JetStream', () => {
  const prefix = uniqueSubjectPrefix();
  const stream = streamName(prefix);
  let nc: NatsConnection;
  let t: TestApp;
  let dns: DnsServer;

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL, name: 'asyncapi-test-subscriber' });
    dns = await startDnsServer(domainZones());
    t = await startTestApp({
      env: { ...domainEnv(dns.address), NATS_URL: TEST_NATS_URL, NATS_SUBJECT_PREFIX: prefix },
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    if (nc) {
      const jsm = await nc.jetstreamManager();
      for (const name of [stream, `KV_${DEFAULT_MEMBERSHIP.bucket}_${prefix}`]) {
        await jsm.streams.delete(name).catch(() => undefined);
      }
      await nc.close();
    }
  });

  const fetchDocument = async () => (await request(t.server).get('/asyncapi.json').expect(200)).body;

  it('is public, valid AsyncAPI 2.6 (by @asyncapi/parser), with a channel per event type and edge.invalidate', async () => {
    const doc = await fetchDocument();
    expect(doc.asyncapi).toBe('2.6.0');
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    const errors = diagnostics.filter((d) => Number(d.severity) === 0); // 0: error;
    expect(errors.map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document).toBeDefined();

    const channels = Object.keys(doc.channels);
    expect(channels).toEqual([...EVENT_TYPES.map((type) => `events.{workspaceId}.${type}`), EDGE_INVALIDATE_SUBJECT]);
    expect(document!.channels().all().length).toBe(EVENT_TYPES.length + 1);
    for (const type of EVENT_TYPES) {
      const message = document!.channels().get(`events.{workspaceId}.${type}`)!.messages().all()[0];
      expect(message.name()).toBe(type);
    }
    // The envelope is the OpenAPI document's Event schema, not a second copy.
    const openapi = (await request(t.server).get('/openapi.json').expect(200)).body;
    expect(doc.components.schemas.Event).toEqual(openapi.components.schemas.Event);
    expect(doc.components.schemas.Domain).toEqual(openapi.components.schemas.Domain);
    expect(doc.info.description).toContain('NATS_SUBJECT_PREFIX');
    expect(doc.channels[EDGE_INVALIDATE_SUBJECT].description).toMatch(/^Internal-only/);
  });

  /** The documented payload of each event type, compiled by Ajv (nullable included). */
  async function payloadValidators() {
    const doc = await fetchDocument();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: doc.components }, 'asyncapi');
    return (type: string) => {
      const channel = doc.channels[`events.{workspaceId}.${type}`];
      const messageName = channel.subscribe.message.$ref.split('/').pop();
      return ajv.compile({ $ref: `asyncapi#/components/messages/${messageName}/payload` });
    };
  }

  it('a domain.created event on the stream matches its documented payload; a wrong one does not', async () => {
    const payload = await payloadValidators();

    const jsm = await nc.jetstreamManager();
    await eventually(
      () =>
        jsm.streams.info(stream).then(
          () => true,
          () => false,
        ),
      Boolean,
      { what: 'the EVENTS stream' },
    );
    await jsm.consumers.add(stream, {
      durable_name: 'asyncapi-check',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${prefix}.events.*.domain.created`,
    });
    const consumer = await nc.jetstream().consumers.get(stream, 'asyncapi-check');

    const { apiKey, workspaceId } = await createWorkspaceVia(t.server);
    await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ hostname: 'shop.asyncapi-customer.com', originUrl: ORIGIN_URL })
      .expect(201);

    const message = (await eventually(() => consumer.next({ expires: 2_000 }), Boolean, {
      what: 'domain.created on the stream',
    })) as JsMsg;
    message.ack();
    expect(message.subject).toBe(`${prefix}.events.${workspaceId}.domain.created`);
    const body = message.json<Record<string, any>>();
    expect(message.headers?.get('Nats-Msg-Id')).toBe(body.id);

    const validate = payload('domain.created');
    expect(validate(body) ? [] : validate.errors).toEqual([]);
    expect(body.data.domain.hostname).toBe('shop.asyncapi-customer.com');
    // The schema has teeth: another type's payload, or a missing domain, is refused.
    expect(payload('domain_purchase.completed')(body)).toBe(false);
    expect(validate({ ...body, data: {} })).toBe(false);
  });

  it('every event type family on the stream has typed data extras: changes, registrations, renewals, failures', async () => {
    const payload = await payloadValidators();
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add(stream, {
      durable_name: 'asyncapi-all',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${prefix}.events.>`,
    });
    const consumer = await nc.jetstream().consumers.get(stream, 'asyncapi-all');

    // A domain created and deleted; a purchase, its renewal, a refused purchase and a refused renewal.
    const { apiKey } = await purchaseWorkspace(t.server, 'pm_card_visa');
    const auth = { authorization: `Bearer ${apiKey}` };
    const { body: created } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'gone.asyncapi-customer.com', originUrl: ORIGIN_URL })
      .expect(201);
    await request(t.server).delete(`/v1/domains/${created.domain.id}`).set(auth).expect(200);
    const buy = (hostname: string, years = 1) =>
      request(t.server).post('/v1/domain-purchases').set(auth).send({ hostname, registrant: REGISTRANT, years });
    const { body: bought } = await buy(uniqueDomain()).expect(201);
    await request(t.server)
      .post(`/v1/domain-purchases/${bought.purchase.id}/renew`)
      .set(auth)
      .send({ years: 1 })
      .expect(200);
    await buy(uniqueDomain('refuse')).expect(502);
    const { body: nineYears } = await buy(uniqueDomain(), 9).expect(201);
    // Beyond the registry's 10 years: the registrar refuses, the charge is refunded.
    await request(t.server)
      .post(`/v1/domain-purchases/${nineYears.purchase.id}/renew`)
      .set(auth)
      .send({ years: 2 })
      .expect(502);

    type Event = { id: string; type: string; data: Record<string, any> };
    const seen: Event[] = [];
    const kinds = (events: Event[]) =>
      new Set(events.map((e) => `${e.type}${e.data.operation ? `:${e.data.operation}` : ''}`));
    const expected = [
      'domain.created',
      'domain.deleted',
      'domain_purchase.completed',
      'domain_purchase.completed:renewal',
      'domain_purchase.failed',
      'domain_purchase.failed:renewal',
    ];
    await eventually(
      async () => {
        for await (const message of await consumer.fetch({ max_messages: 50, expires: 1_000 })) {
          message.ack();
          seen.push(message.json<Event>());
        }
        return seen;
      },
      (events) => expected.every((kind) => kinds(events).has(kind)),
      { timeoutMs: 30_000, what: `events ${expected.join(', ')} on the stream` },
    );
    const problems = seen.flatMap((event) => {
      const { type } = event;
      const validate = payload(type);
      return validate(event) ? [] : [`${type}: ${JSON.stringify(validate.errors)}`];
    });
    expect(problems).toEqual([]);

    const deleted = seen.find((e) => e.type === 'domain.deleted')!;
    expect(deleted.data).toEqual({
      domain: expect.objectContaining({ id: created.domain.id }),
      previousStatus: 'pending',
    });
    const refusedRenewal = seen.find((e) => e.type === 'domain_purchase.failed' && e.data.operation === 'renewal')!;
    expect(refusedRenewal.data.renewal).toMatchObject({
      status: 'refunded',
      years: 2,
      failure: { code: 'registrar_error', reason: expect.any(String) },
    });

    // The extras are typed, not free text: a wrong value or an undocumented field is refused.
    const change = payload('domain.deleted');
    expect(change({ ...deleted, data: { ...deleted.data, reason: 'dns_drift', certificateRenewed: true } })).toBe(true);
    expect(change({ ...deleted, data: { ...deleted.data, reason: 'bored' } })).toBe(false);
    expect(change({ ...deleted, data: { ...deleted.data, previousStatus: undefined } })).toBe(false);
    expect(change({ ...deleted, data: { ...deleted.data, surprise: 1 } })).toBe(false);
    const failed = payload('domain_purchase.failed');
    const renewal = refusedRenewal.data.renewal as Record<string, unknown>;
    expect(failed({ ...refusedRenewal, data: { ...refusedRenewal.data, renewal } })).toBe(true);
    expect(
      failed({ ...refusedRenewal, data: { ...refusedRenewal.data, renewal: { ...renewal, chargeId: 'ch_1' } } }),
    ).toBe(false);
    expect(failed({ ...refusedRenewal, data: { ...refusedRenewal.data, renewal: undefined } })).toBe(false);
    expect(payload('domain.created')({ ...deleted, type: 'domain.created' })).toBe(false);
  });
});

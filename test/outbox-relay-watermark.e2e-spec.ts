import {
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  eventually,
  insertOutboxEvents,
  sleep,
  startTestApp,
  startWebhookReceiver,
} from '@test/support';
import { Client } from 'pg';
import request from 'supertest';
import { LOOK_SQL, claimSql } from '../libs/webhooks/src/store/relay.queries';

/**
 * The relay keeps one watermark over (transaction id, insertion number) instead of marking each
 * event. What that must never do: move past an event whose transaction is still running, since an
 * older transaction committing later would put its events behind the watermark, lost.
 */
describe('the outbox relay watermark', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let workspaceId: string;
  let open: Client | undefined;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' } });
    const ws = await createWorkspaceVia(t.server);
    workspaceId = ws.workspaceId;
    await request(t.server)
      .post('/v1/webhook-endpoints')
      .set('authorization', `Bearer ${ws.apiKey}`)
      .send({ url: `${receiver.url}/hook`, events: [] })
      .expect(201);
  });
  afterAll(async () => {
    await open?.end().catch(() => undefined);
    await t?.close();
    await receiver?.close();
  });

  const delivered = () => receiver.received('/hook').map((w) => w.body.id as string);

  it('holds later events back while an older transaction runs, then relays both, older first', async () => {
    // The older transaction writes an event and stays open (its transaction id is the lower one).
    open = new Client({ connectionString: t.db.url });
    await open.connect();
    await open.query('begin');
    await open.query(
      `insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id)
       values ('evt_testolder', $1, 'domain.created', '{}', 'test', 'test')`,
      [workspaceId],
    );
    // A younger transaction commits its event (and wakes the relay).
    const [younger] = await insertOutboxEvents(t, workspaceId, [{ type: 'domain.created' }]);

    // Nothing signals that an event will not be relayed: time must pass, with the relay looking
    // again every few milliseconds meanwhile.
    await sleep(1_000);
    expect(delivered()).toEqual([]);
    const [mark] = await t.db.query('select seq from outbox_relay_mark');
    const [behind] = await t.db.query('select seq from outbox_events where id = $1', [younger]);
    expect(BigInt(mark.seq)).toBeLessThan(BigInt(behind.seq));

    await open.query('commit');
    await receiver.waitFor((r) => r.length >= 2, 10_000, 'both events at /hook');
    const order = await t.db.query<{ id: string }>('select id from outbox_events order by xid, seq');
    expect(order.map((r) => r.id)).toEqual(['evt_testolder', younger]);
    expect(delivered().sort()).toEqual(['evt_testolder', younger].sort());
  });

  it('relays each event once: the watermark ends at the last event and no delivery is doubled', async () => {
    const ids = await insertOutboxEvents(
      t,
      workspaceId,
      Array.from({ length: 30 }, () => ({ type: 'domain.verified' })),
    );
    await receiver.waitFor((r) => r.length >= 32, 15_000, 'every event at /hook');
    const [{ last }] = await t.db.query('select max(seq) as last from outbox_events');
    await eventually(
      async () => (await t.db.query('select seq from outbox_relay_mark'))[0].seq,
      (s) => s === last,
      {
        what: 'the watermark at the last event',
      },
    );
    const perEvent = await t.db.query<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries group by event_id',
    );
    expect(perEvent).toHaveLength(32);
    expect(perEvent.every((r) => r.n === 1)).toBe(true);
    expect(delivered().filter((id) => ids.includes(id))).toHaveLength(30);
  });

  it('looks and claims by the index range after the watermark, however long the outbox is', async () => {
    // Events of a workspace without endpoints: relayed (the watermark moves past them), no deliveries.
    const quiet = await createWorkspaceVia(t.server);
    await t.db.query(
      `insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id)
       select 'evt_bulk' || g, $1, 'domain.created', '{}', 'test', 'test' from generate_series(1, 20000) g`,
      [quiet.workspaceId],
    );
    const [{ last }] = await t.db.query('select max(seq) as last from outbox_events');
    await eventually(
      async () => (await t.db.query('select seq from outbox_relay_mark'))[0].seq,
      (s) => s === last,
      {
        timeoutMs: 30_000,
        what: 'the watermark past the bulk events',
      },
    );
    const blocks = async (sql: string, params: unknown[] = []) => {
      const [{ 'QUERY PLAN': plan }] = await t.db.query(`explain (analyze, buffers, format json) ${sql}`, params);
      return plan[0].Plan['Shared Hit Blocks'] + (plan[0].Plan['Shared Read Blocks'] ?? 0);
    };
    // Joined as a row, the watermark was a filter over the whole index: some 300 blocks here.
    expect(await blocks(LOOK_SQL)).toBeLessThan(20);
    expect(await blocks(claimSql(500))).toBeLessThan(30);
  });
});

import { DEFAULT_MEMBERSHIP } from '@app/actors';
import { streamName } from '@app/webhooks';
import {
  ServiceProcess,
  TEST_NATS_URL,
  TestDatabase,
  WebhookReceiver,
  createTestDatabase,
  createWorkspaceVia,
  eventually,
  insertOutboxEvents,
  startProcess,
  startWebhookReceiver,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
  clusterProcessEnv,
} from '@test/support';
import { connect } from 'nats';
import { Client } from 'pg';

const EVENTS = 60;

describe('a node SIGKILLed mid-delivery (two node processes, one api)', () => {
  const prefix = uniqueSubjectPrefix();
  let db: TestDatabase;
  let pg: Client;
  let receiver: WebhookReceiver;
  const nodes = new Map<string, ServiceProcess>();

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await startWebhookReceiver();
    // A slow receiver: every request is held 1.5 s, so deliveries are in flight when the node dies.
    receiver.answer = () => ({ status: 200, delayMs: 1_500 });
  });
  afterAll(async () => {
    await stopAllProcesses();
    await pg?.end();
    await receiver?.close();
    await db?.drop();
    const nc = await connect({ servers: TEST_NATS_URL });
    const jsm = await nc.jetstreamManager();
    for (const name of [streamName(prefix), `KV_${DEFAULT_MEMBERSHIP.bucket}_${prefix}`]) {
      await jsm.streams.delete(name).catch(() => undefined);
    }
    await nc.close();
  });

  it('delivers every event at least once after another node takes over', async () => {
    const env = {
      ...clusterProcessEnv(db.url, prefix),
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      RATE_LIMITS: 'off',
    };
    const api = startProcess('dist/apps/api/src/main.js', env);
    for (const id of ['n1', 'n2']) nodes.set(id, startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: id }));
    const url = await waitForUrl(api, 60_000);
    await Promise.all([...nodes.values()].map((n) => waitForUrl(n, 60_000)));
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    const query = async <T>(sql: string, params: unknown[] = []) => (await pg.query(sql, params)).rows as T[];
    await eventually(
      () =>
        query<{ owner: string }>(
          'select distinct owner from shard_leases where owner is not null and expires_at > now()',
        ),
      (owners) => owners.length === 2,
      { timeoutMs: 20_000, everyMs: 200, what: 'both nodes owning shards' },
    );

    const { apiKey, workspaceId } = await createWorkspaceVia(url);
    const created = await fetch(`${url}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/slow`, events: [] }),
    });
    expect(created.status).toBe(201);
    const ids = await insertOutboxEvents(
      { query },
      workspaceId,
      Array.from({ length: EVENTS }, () => ({ type: 'domain.verified' })),
    );

    // Both nodes claim; kill one while its attempts are in flight at the receiver.
    type Claim = { owner: string; event_id: string };
    const claims = await eventually(
      () =>
        query<Claim>(
          "select locked_by as owner, event_id from webhook_deliveries where status = 'pending' and claim_id is not null",
        ),
      (rows) => new Set(rows.map((c) => c.owner)).size === 2 && receiver.requests.length >= 4,
      { timeoutMs: 10_000, everyMs: 50, what: 'claims by both nodes with attempts in flight' },
    );
    const victim = claims.some((c) => c.owner === 'n2') ? 'n2' : 'n1';
    nodes.get(victim)!.child.kill('SIGKILL');
    const killedAt = Date.now();
    const held = claims.filter((c) => c.owner === victim).map((c) => c.event_id);
    expect(held.length).toBeGreaterThan(0);

    await eventually(
      async () =>
        (await query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status = 'delivered'"))[0]
          .n,
      (delivered) => delivered === EVENTS,
      { timeoutMs: 40_000, everyMs: 250, what: 'every event delivered' },
    );
    const rows = await query<{ event_id: string; status: string; locked_by: string | null }>(
      'select event_id, status, locked_by from webhook_deliveries',
    );
    expect(rows).toHaveLength(EVENTS);
    expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);
    const arrived = new Set(receiver.requests.map((r) => r.body.id as string));
    expect(ids.filter((id) => !arrived.has(id))).toEqual([]);
    // What the dead node held was sent again by the survivor, after the lease ran out.
    const afterKill = new Set(receiver.requests.filter((r) => r.at > killedAt).map((r) => r.body.id as string));
    expect(held.filter((id) => !afterKill.has(id))).toEqual([]);
    expect(Date.now() - killedAt).toBeLessThan(35_000);
  });
});

import { NatsBus } from '@app/bus';
import { replicaBucket, replicaKey } from '@app/edge';
import {
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TEST_NATS_URL,
  TestDatabase,
  callApi,
  clusterProcessEnv,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventually,
  sleep,
  startDnsServer,
  startProcess,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
} from '@test/support';
import { Client } from 'pg';
import { NatsKvReplica } from '../libs/edge/src/replica/nats-kv.replica';
import { CHECKPOINT_KEY, LOADING_KEY } from '../libs/edge/src/replica/replica-entry';

jest.setTimeout(180_000);

const HOSTNAME = 'first-load.example-saas.com';

/**
 * On NATS the edges are processes of their own, serving their last copy: a node does not wait for
 * the replica writer's first load (a minute at a million domains). Here that load cannot even read
 * the change log (a lock held on it), and the node still starts; once the lock goes, the load ends.
 */
describe('the edge replica writer in a node on NATS', () => {
  const prefix = uniqueSubjectPrefix();
  let db: TestDatabase;
  let dns: DnsServer;
  let bus: NatsBus;

  beforeAll(async () => {
    [db, dns, bus] = await Promise.all([
      createTestDatabase(),
      startDnsServer(domainZones()),
      NatsBus.connect([TEST_NATS_URL], 'first-load-test'),
    ]);
    dns.setRecords(HOSTNAME, [{ type: 'CNAME', data: EDGE_TARGET }]);
  });
  afterAll(async () => {
    await stopAllProcesses();
    await (
      await bus?.connection.jetstreamManager()
    )?.streams
      .delete(`KV_${replicaBucket(prefix)}`)
      .catch(() => undefined);
    await bus?.close();
    await dns?.close();
    await db?.drop();
  });

  it('starts the node while its first load is held; one writer loads at a time, and takes over a dead one’s load', async () => {
    const env = { ...clusterProcessEnv(db.url, prefix), ...domainEnv(dns.address), RATE_LIMITS: 'off' };
    const api = await waitForUrl(startProcess('dist/apps/api/src/main.js', env), 120_000);
    const n1 = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n1' });
    await waitForUrl(n1, 120_000);
    const key = (
      await callApi(api, 'POST', '/admin/workspaces', TEST_ADMIN_TOKEN, {
        name: 'first-load',
        paymentMethod: 'pm_card_visa',
      })
    ).body.apiKey as string;
    const created = await callApi(api, 'POST', '/v1/domains', key, { hostname: HOSTNAME, originUrl: ORIGIN_URL });
    expect(created.status).toBe(201);
    const replica = await NatsKvReplica.open(bus, replicaBucket(prefix), 1);
    await eventually(
      () => replica.get(replicaKey(HOSTNAME)),
      (value) => value !== undefined,
      { timeoutMs: 30_000, what: 'the domain in the replica' },
    );
    expect(await n1.stop(10_000)).toBe(0);

    // A replica with no checkpoint (a new bucket): the next writer loads every live domain, unless
    // another writer holds the load's lease, as one does here (refreshed a moment ago).
    await replica.delete(CHECKPOINT_KEY);
    await replica.delete(replicaKey(HOSTNAME));
    await replica.put(LOADING_KEY, JSON.stringify({ by: 'another-writer', at: Date.now() }));
    const lock = new Client({ connectionString: db.url });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table edge_changes in access exclusive mode');
      const n2 = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n2', LOG_LEVEL: 'info' });
      // Listening (its start is over), with the load still held by the lock.
      await waitForUrl(n2, 120_000);
      expect(await replica.get(replicaKey(HOSTNAME))).toBeUndefined();
      expect(await replica.get(CHECKPOINT_KEY)).toBeUndefined();
      await lock.query('rollback');
      await n2.waitFor(/another writer is loading every live domain; waiting/);
      // It polls every 250 ms: three seconds of passes, and it still leaves the load to the lease's holder.
      await sleep(3_000);
      expect(await replica.get(replicaKey(HOSTNAME))).toBeUndefined();
      // That writer stops refreshing its lease (it died): a minute later, this one takes the load over.
      await replica.put(LOADING_KEY, JSON.stringify({ by: 'another-writer', at: Date.now() - 61_000 }));
      await eventually(
        async () => [await replica.get(replicaKey(HOSTNAME)), await replica.get(CHECKPOINT_KEY)],
        ([entry, checkpoint]) => entry !== undefined && checkpoint !== undefined,
        { timeoutMs: 30_000, what: 'the load taken over from the dead writer' },
      );
      // Done: the lease is given back.
      expect(await replica.get(LOADING_KEY)).toBeUndefined();
    } finally {
      await lock.end();
    }
  });
});

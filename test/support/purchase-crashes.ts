import { DEFAULT_MEMBERSHIP } from '@app/actors';
import {
  DnsServer,
  EDGE_IP,
  EDGE_TARGET,
  ORIGIN_URL,
  REGISTRANT,
  ServiceProcess,
  TEST_NATS_URL,
  TestDatabase,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventuallyDefined,
  purchaseWorkspace,
  refuseDnsWritesForNsfailNames,
  queryOnce,
  startDnsServer,
  startProcess,
  stopAllProcesses,
  uniqueDomain,
  uniqueSubjectPrefix,
  waitForUrl,
  clusterProcessEnv,
} from './index';
import { streamName } from '@app/webhooks';
import { connect } from 'nats';

type Path = 'autoConnect' | 'rollback' | 'refusal' | 'renewal';

/**
 * PURCHASE_CRASH_AFTER points (read by test/fixtures/crash-node.main.ts, the node with a crash listener
 * on the purchase saga): a step name kills the node right after that step was persisted;
 * `after:<effect>` right after the external effect returned and before its outcome was persisted.
 * Rounds are ordered so that the node recovering the previous round's purchase (while armed with the
 * next point) never passes that point on the way: latest step first within a path, and no path's
 * points lie on the recovery route of the path before it. The rounds are split in two files that
 * run in parallel, each on its own database, api and node.
 */
export const AUTO_CONNECT_ROUNDS: CrashRound[] = [
  ['autoConnect', 'after:set_routing'],
  ['autoConnect', 'routing'],
  ['autoConnect', 'after:create_domain'],
  ['autoConnect', 'connecting'],
  ['autoConnect', 'after:register'],
  ['autoConnect', 'registering'],
  ['autoConnect', 'after:charge'],
  ['autoConnect', 'charging'],
];

export const COMPENSATION_AND_RENEWAL_ROUNDS: CrashRound[] = [
  ['refusal', 'after:refund'],
  ['refusal', 'refunding'],
  // autoConnect fails after the Domain was created (the registrar refuses the routing write).
  ['rollback', 'after:remove_domain'],
  ['rollback', 'disconnecting'],
  ['renewal', 'after:renewal:renew'],
  ['renewal', 'renewal:renewing'],
  ['renewal', 'after:renewal:charge'],
  ['renewal', 'renewal:charging'],
];

export type CrashRound = [Path, string];

/**
 * Purchase saga crash safety with real processes: one api and a node SIGKILLed at each of `rounds`
 * (recovered by the next start of the same node), then the books of every purchase.
 */
export function describePurchaseCrashes(title: string, rounds: CrashRound[]): void {
  describe(title, () => {
    const prefix = uniqueSubjectPrefix();
    let db: TestDatabase;
    let dns: DnsServer;
    let api: string;
    let node: ServiceProcess | undefined;
    const inflight: AbortController[] = [];
    let env: Record<string, string>;
    const q = <T = any>(sql: string, params: unknown[] = []) => queryOnce<T>(db.url, sql, params);

    beforeAll(async () => {
      db = await createTestDatabase();
      dns = await startDnsServer(domainZones());
      env = {
        ...clusterProcessEnv(db.url, prefix),
        RATE_LIMITS: 'off',
        PURCHASE_SWEEP_SECONDS: '1',
        ...domainEnv(dns.address),
      };
      api = await waitForUrl(startProcess('dist/apps/api/src/main.js', env), 60_000);
      await refuseDnsWritesForNsfailNames((sql) => q(sql));
    });
    afterAll(async () => {
      inflight.forEach((c) => c.abort());
      await stopAllProcesses();
      await dns?.close();
      await db?.drop();
      const nc = await connect({ servers: TEST_NATS_URL });
      const jsm = await nc.jetstreamManager();
      for (const name of [`KV_${DEFAULT_MEMBERSHIP.bucket}_${prefix}`, streamName(prefix)]) {
        await jsm.streams.delete(name).catch(() => undefined);
      }
      await nc.close();
    });

    /** Node `n1` (same id every time, so it reclaims its own leases at once), optionally armed to crash. */
    async function startNode(crashAfter?: string): Promise<ServiceProcess> {
      const proc = startProcess(crashAfter ? 'dist/test/fixtures/crash-node.main.js' : 'dist/apps/node/src/main.js', {
        ...env,
        NODE_ID: 'n1',
        ...(crashAfter ? { PURCHASE_CRASH_AFTER: crashAfter } : {}),
      });
      await waitForUrl(proc, 60_000);
      return proc;
    }

    /** Fires a request and does not wait: the node serving it is about to die. */
    function fire(path: string, key: string, body: unknown): void {
      const controller = new AbortController();
      inflight.push(controller);
      fetch(`${api}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      }).catch(() => undefined);
    }

    /** `eventually`, and on a timeout every purchase row and the node's output too. */
    async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
      try {
        return await eventuallyDefined(probe, { timeoutMs, everyMs: 200, what });
      } catch (error) {
        const rows = await q('select id, hostname, status, step, updated_at from purchases order by created_at');
        throw new Error(`${(error as Error).message}\n${JSON.stringify(rows)}\n${node?.output() ?? ''}`);
      }
    }

    const purchaseOf = (hostname: string) =>
      q<{ id: string; status: string; state: any }>('select id, status, state from purchases where hostname = $1', [
        hostname,
      ]).then((rows) => rows[0]);
    const renewalDone = (id: string) =>
      q<{ step: string }>("select state->'renewals'->0->>'step' as step from purchases where id = $1", [id]).then(
        (r) => (['renewed', 'failed', 'refunded'].includes(r[0]?.step) ? r[0].step : undefined),
      );

    it('recovers or compensates every purchase: never charged without registration or refund, never twice', async () => {
      const started = Date.now();
      node = await startNode();
      const { apiKey } = await purchaseWorkspace(api, 'pm_card_visa');
      // Completed purchases to renew in the renewal rounds, bought before any crash.
      const renewable: { id: string; hostname: string; expiresAt: string }[] = [];
      for (let i = 0; i < rounds.filter(([p]) => p === 'renewal').length; i++) {
        const res = await fetch(`${api}/v1/domain-purchases`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ hostname: uniqueDomain('renew'), registrant: REGISTRANT }),
        });
        expect(res.status).toBe(201);
        renewable.push(((await res.json()) as any).purchase);
      }
      await node.stop(15_000);

      const cases: { path: Path; point: string; hostname: string; id?: string }[] = [];
      let previous: (() => Promise<unknown>) | undefined;
      for (const [path, point] of rounds) {
        node = await startNode(point);
        // This node first recovers the previous round's purchase (its sweeper, or the API's retry).
        if (previous) await previous();
        const c: (typeof cases)[number] = { path, point, hostname: '' };
        cases.push(c);
        if (path === 'renewal') {
          const target = renewable.shift()!;
          c.hostname = target.hostname;
          c.id = target.id;
          fire(`/v1/domain-purchases/${target.id}/renew`, apiKey, { years: 1 });
          previous = () => until(`renewal of ${target.id}`, () => renewalDone(target.id));
        } else {
          c.hostname = uniqueDomain({ autoConnect: 'crash', rollback: 'nsfail', refusal: 'refuse' }[path]);
          fire('/v1/domain-purchases', apiKey, {
            hostname: c.hostname,
            registrant: REGISTRANT,
            ...(path === 'refusal' ? {} : { autoConnect: { originUrl: ORIGIN_URL } }),
          });
          const hostname = c.hostname;
          previous = () =>
            until(`purchase of ${hostname}`, async () => {
              const row = await purchaseOf(hostname);
              return row && ['completed', 'refunded', 'failed'].includes(row.status) ? row : undefined;
            });
        }
        let timer: NodeJS.Timeout | undefined;
        const alive = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('alive'), 30_000)));
        const code = await Promise.race([node.exited, alive]);
        clearTimeout(timer);
        expect([point, code, node.child.signalCode]).toEqual([point, null, 'SIGKILL']);
        if (point === 'routing') {
          // Records the owner had at the registrar before the routing write: they must survive it.
          await q(`update sandbox_registrations set dns_records = dns_records || $2::jsonb where hostname = $1`, [
            c.hostname,
            JSON.stringify([
              { type: 'MX', name: '@', value: 'mx.mail.example', ttl: 1800, priority: 10 },
              { type: 'TXT', name: '@', value: 'v=spf1 -all', ttl: 1800 },
            ]),
          ]);
        }
      }
      node = await startNode();
      await previous!();

      for (const c of cases) {
        const row = await purchaseOf(c.hostname);
        const id = row.id;
        const charges = await q<{ id: string; idempotency_key: string; status: string }>(
          "select id, idempotency_key, status from sandbox_charges where metadata->>'purchaseId' = $1 order by created_at",
          [id],
        );
        const refunds = await q<{ idempotency_key: string }>(
          "select r.idempotency_key from sandbox_refunds r join sandbox_charges c on c.id = r.charge_id where c.metadata->>'purchaseId' = $1",
          [id],
        );
        const registrations = await q<{ expires_at: Date; dns_records: any[] }>(
          'select expires_at, dns_records from sandbox_registrations where hostname = $1',
          [c.hostname],
        );
        const label = `${c.path} ${c.point}`;
        if (c.path === 'autoConnect') {
          expect([label, row.status]).toEqual([label, 'completed']);
          expect([label, charges.map((x) => x.idempotency_key)]).toEqual([label, [`purchase:${id}:charge`]]);
          expect([label, refunds]).toEqual([label, []]);
          expect([label, registrations.length]).toEqual([label, 1]);
          const domains = await q('select id from domains where hostname = $1 and deleted_at is null', [c.hostname]);
          expect([label, domains]).toEqual([label, [{ id: row.state.saga.connectedDomainId }]]);
          const records = registrations[0].dns_records;
          expect(records).toEqual(
            expect.arrayContaining([
              { type: 'A', name: '@', value: EDGE_IP, ttl: 1800 },
              { type: 'CNAME', name: 'www', value: EDGE_TARGET, ttl: 1800 },
            ]),
          );
          expect(
            records.filter((r: any) => ['@', 'www'].includes(r.name) && ['A', 'CNAME'].includes(r.type)),
          ).toHaveLength(2);
          if (c.point === 'routing')
            expect(records.map((r: any) => r.type)).toEqual(expect.arrayContaining(['MX', 'TXT']));
        } else if (c.path === 'rollback') {
          expect([label, row.status]).toEqual([label, 'refunded']);
          expect([label, charges.length, refunds]).toEqual([label, 1, [{ idempotency_key: `purchase:${id}:refund` }]]);
          const domains = await q('select 1 from domains where hostname = $1 and deleted_at is null', [c.hostname]);
          expect([label, domains]).toEqual([label, []]);
        } else if (c.path === 'refusal') {
          expect([label, row.status]).toEqual([label, 'refunded']);
          expect([label, charges.length, refunds]).toEqual([label, 1, [{ idempotency_key: `purchase:${id}:refund` }]]);
          expect([label, registrations.length]).toEqual([label, 0]);
        } else {
          const renewals = row.state.renewals as { step: string; previousExpiresAt: string; expiresAt: string }[];
          expect([label, renewals.map((r) => r.step)]).toEqual([label, ['renewed']]);
          expect([label, charges.map((x) => x.idempotency_key)]).toEqual([
            label,
            [`purchase:${id}:charge`, `purchase:${id}:renew:1`],
          ]);
          // Renewed exactly once at the registrar: one year more, not two.
          const oneYearOn = new Date(renewals[0].previousExpiresAt);
          oneYearOn.setUTCFullYear(oneYearOn.getUTCFullYear() + 1);
          expect([label, registrations[0].expires_at.toISOString()]).toEqual([label, oneYearOn.toISOString()]);
          expect(renewals[0].expiresAt).toBe(registrations[0].expires_at.toISOString());
        }
        const outcome = await q<{ type: string }>(
          "select type from outbox_events where aggregate_kind = 'purchase' and aggregate_id = $1 and coalesce(data->>'operation', 'purchase') = $2",
          [id, c.path === 'renewal' ? 'renewal' : 'purchase'],
        );
        expect([label, outcome.length]).toEqual([label, 1]);
      }
      // Across everything: each successful charge belongs to a completed purchase or renewal, or was refunded.
      const orphans = await q(
        `select c.idempotency_key from sandbox_charges c
       left join sandbox_refunds r on r.charge_id = c.id
       join purchases p on p.id = c.metadata->>'purchaseId'
       where c.status = 'succeeded' and r.id is null and p.status <> 'completed'`,
      );
      expect(orphans).toEqual([]);
      process.stdout.write(`crash rounds: ${rounds.length} kills in ${Math.round((Date.now() - started) / 1000)} s\n`);
    }, 300_000);
  });
}

import { loadavg } from 'node:os';
import { pendingProbeWaits } from '../../libs/domains/src/store/pending-backoff';
import type { Pool } from 'pg';
import type { DnsRecord, DnsZones } from '../../test/support/dns-server';
import { cpuSeconds, createWorkspace, fixtures, json, percent } from '../domains/service';
import { pool } from '../lib/cluster';
import { stopAll } from '../lib/processes';
import { percentile, round, sleep } from '../lib/stats';
import { BenchEnv, Benchmark, Figure, Measured, figure } from '../lib/types';
import { CERTIFICATES_AREA } from './area';
import {
  BenchPebble,
  ControlledDns,
  describeCounts,
  duplicateOrders,
  freePort,
  pebbleRoot,
  pebbleVersion,
  servesCertificate,
  startBenchPebble,
  startControlledDns,
  startProxy,
  startSerialGate,
  describeGate,
  startStandalone,
  warnings,
} from './stack';

/** Domains per scenario (a, b and c each). */
const PER_SCENARIO = Number(process.env.BENCH_TTH_DOMAINS ?? 200);
/** Between two creations (the three scenarios interleaved): 600 domains over 90 s. */
const STAGGER_MS = Number(process.env.BENCH_TTH_STAGGER_MS ?? 150);
/** (b) and (c): DNS is fixed at a uniformly random moment this long after the domain's creation. */
const FIX_WINDOW_MS = Number(process.env.BENCH_TTH_FIX_WINDOW_MS ?? 150_000);
const ACME_CONCURRENCY = process.env.BENCH_TTH_ACME_CONCURRENCY ?? '16';
const INTERVAL_S = 300;
/** The pending back-off at MONITOR_INTERVAL_SECONDS=300 (README, "Fast time to HTTPS"). */
const BACKOFF_WAITS_S = pendingProbeWaits(INTERVAL_S);
/** After the last creation: the fix window, the longest back-off wait, and room for the order. */
const DEADLINE_AFTER_LAST_MS = FIX_WINDOW_MS + Math.max(...BACKOFF_WAITS_S) * 1000 + 90_000;
const SUFFIX = '-tthb.com';
const WRONG_TARGET = 'other-host.saas-test.net';

type Scenario = 'a' | 'b' | 'c';

interface Tracked {
  scenario: Scenario;
  hostname: string;
  id?: string;
  createdAt?: number;
  /** DNS correct: the create's 201 (a), or the DNS server's change (b, c). */
  correctAt?: number;
  checkMs?: number;
  checkStatus?: number;
  storedAt?: number;
  servedAt?: number;
  handshakes: number;
}

const hostnameOf = (scenario: Scenario, i: number) => `shop.${scenario}${String(i).padStart(4, '0')}${SUFFIX}`;

/** When the back-off probes a domain, in seconds after its creation (until the fix window's end). */
function probeTimes(): number[] {
  const probesAt: number[] = [];
  let at = 0;
  for (const wait of BACKOFF_WAITS_S) if (at < FIX_WINDOW_MS / 1000) probesAt.push((at += wait));
  return probesAt;
}

/** The (b) wait from a fix uniformly in the window to the next back-off probe, by the waits alone. */
function modelledProbeWaits(): number[] {
  const probesAt = probeTimes();
  const out: number[] = [];
  for (let i = 0; i < 100_000; i++) {
    const fix = Math.random() * (FIX_WINDOW_MS / 1000);
    out.push((probesAt.find((p) => p >= fix) ?? fix) - fix);
  }
  return out;
}

/** Watches `certificates` (every 250 ms) and, for each new row, handshakes with the edge until it serves it. */
function watchServed(pg: Pool, byHostname: Map<string, Tracked>, httpsPort: number, root: string) {
  let stopped = false;
  const serving: Promise<void>[] = [];
  const serve = async (t: Tracked) => {
    const until = Date.now() + 60_000;
    while (!stopped && Date.now() < until) {
      t.handshakes++;
      if (await servesCertificate(httpsPort, t.hostname, root)) {
        t.servedAt = Date.now();
        return;
      }
      await sleep(100);
    }
  };
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await pg.query<{ hostname: string; created_at: Date }>(
        'select hostname, created_at from certificates',
      );
      for (const row of rows) {
        const t = byHostname.get(row.hostname);
        if (!t || t.storedAt !== undefined) continue;
        t.storedAt = row.created_at.getTime();
        serving.push(serve(t));
      }
      await sleep(250);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      await Promise.all(serving);
    },
  };
}

interface Stages {
  toProbe?: number;
  queue?: number;
  caaAndBudget?: number;
  caOrder?: number;
  toEdge?: number;
  total: number;
  orderAttempts: number;
}

function stagesOf(
  t: Tracked,
  queries: Map<string, { cname: number[]; caa: number[] }>,
  attempts: { at: string; outcome: string }[],
): Stages {
  const q = queries.get(t.hostname) ?? { cname: [], caa: [] };
  const correctAt = t.correctAt!;
  // The probe (or the check's probe) that saw the right CNAME: the first question for it from then on.
  const probe = q.cname.find((at) => at >= correctAt);
  // The order's CAA climb opens it: the first CAA question after that probe (creation asked before).
  const caa = probe !== undefined ? q.caa.find((at) => at >= probe) : undefined;
  const issued = [...attempts].reverse().find((a) => a.outcome === 'issued');
  const orderAt = issued ? Date.parse(issued.at) : undefined;
  return {
    toProbe: probe !== undefined ? probe - correctAt : undefined,
    queue: probe !== undefined && caa !== undefined ? caa - probe : undefined,
    caaAndBudget: caa !== undefined && orderAt !== undefined ? orderAt - caa : undefined,
    caOrder: orderAt !== undefined && t.storedAt !== undefined ? t.storedAt - orderAt : undefined,
    toEdge: t.storedAt !== undefined && t.servedAt !== undefined ? t.servedAt - t.storedAt : undefined,
    total: t.servedAt! - correctAt,
    orderAttempts: attempts.length,
  };
}

const s = (ms: number) => round(ms / 1000, 2);
function spread(values: (number | undefined)[]): string {
  const known = values.filter((v): v is number => v !== undefined);
  if (!known.length) return 'n/a';
  return `p50 ${s(percentile(known, 50))} s, p95 ${s(percentile(known, 95))} s, max ${s(Math.max(...known))} s${
    known.length < values.length ? ` (${values.length - known.length} not told apart)` : ''
  }`;
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 3);
  let pebble: BenchPebble | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let gate: Awaited<ReturnType<typeof startSerialGate>> | undefined;
  let dns: ControlledDns | undefined;
  const timers = new Set<NodeJS.Timeout>();
  try {
    const { EDGE_TARGET, ORIGIN_URL, domainZones } = fixtures();
    const right: DnsRecord[] = [{ type: 'CNAME', data: EDGE_TARGET }];
    const wrong: DnsRecord[] = [{ type: 'CNAME', data: WRONG_TARGET }];
    const tracked: Tracked[] = [];
    for (let i = 0; i < PER_SCENARIO; i++)
      for (const scenario of ['a', 'b', 'c'] as Scenario[])
        tracked.push({ scenario, hostname: hostnameOf(scenario, i), handshakes: 0 });
    const warmup: Tracked = { scenario: 'c', hostname: `shop.warmup${SUFFIX}`, handshakes: 0 };
    const zones: DnsZones = { ...domainZones(), [EDGE_TARGET]: [{ type: 'A', data: '127.0.0.1' }] };
    for (const t of [...tracked, warmup]) zones[t.hostname] = t.scenario === 'a' || t === warmup ? right : wrong;
    dns = await startControlledDns(zones);

    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    pebble = await startBenchPebble({ dnsServer: dns.address, httpPort });
    gate = await startSerialGate(pebble);
    proxy = await startProxy(gate);
    const root = await pebbleRoot(pebble);
    const limits = JSON.stringify({
      new_orders: { capacity: 100_000, periodSeconds: 10_800 },
      certificates_per_domain: { capacity: 100_000, periodSeconds: 604_800 },
    });
    const service = await startStandalone(env, dns.address, {
      EDGE_CNAME_TARGET: EDGE_TARGET,
      EDGE_IPV4: '127.0.0.1',
      EDGE_HTTP_PORT: String(httpPort),
      EDGE_HTTPS_PORT: String(httpsPort),
      ACME_DIRECTORY_URL: proxy.directoryUrl,
      ACME_CA_FILE: proxy.caFile,
      ACME_CAA_IDENTITIES: 'letsencrypt.org',
      ACME_LIMITS: limits,
      ACME_CONCURRENCY,
      MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
    });
    const api = service.url;
    const { apiKey } = await createWorkspace(api);
    const create = async (t: Tracked) => {
      const res = await json(`${api}/v1/domains`, 'POST', apiKey, { hostname: t.hostname, originUrl: ORIGIN_URL });
      if (res.status !== 201)
        throw new Error(`POST /v1/domains ${t.hostname}: ${res.status} ${JSON.stringify(res.body)}`);
      t.createdAt = Date.now();
      t.id = res.body.domain.id as string;
    };
    const byHostname = new Map([...tracked, warmup].map((t) => [t.hostname, t]));
    const watcher = watchServed(pg, byHostname, httpsPort, root);

    // Warm-up, not measured: registers the ACME account (the first order does) and warms the process.
    await create(warmup);
    warmup.correctAt = warmup.createdAt;
    await json(`${api}/v1/domains/${warmup.id}/check`, 'POST', apiKey);
    const warmDeadline = Date.now() + 90_000;
    while (warmup.servedAt === undefined && Date.now() < warmDeadline) await sleep(200);
    if (warmup.servedAt === undefined)
      throw new Error(`The warm-up domain was not served within 90 s; output:\n${service.proc.output()}`);
    console.log(`  warm-up domain served ${s(warmup.servedAt - warmup.correctAt!)} s after its check`);

    const cpuBefore = {
      service: cpuSeconds(service.proc),
      pebble: pebble.cpuSeconds(),
      gate: cpuSeconds(gate.proc),
      dns: cpuSeconds(dns.proc),
      own: process.cpuUsage(),
    };
    const load = { before: loadavg().map((l) => round(l, 2)) };
    const started = Date.now();
    const fixes: Promise<void>[] = [];
    const fixErrors: string[] = [];
    const fix = (t: Tracked) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void (async () => {
            try {
              t.correctAt = await dns!.setRecords(t.hostname, right);
              if (t.scenario === 'c') {
                const checkStarted = Date.now();
                const res = await json(`${api}/v1/domains/${t.id}/check`, 'POST', apiKey);
                t.checkMs = Date.now() - checkStarted;
                t.checkStatus = res.status;
              }
            } catch (error) {
              fixErrors.push(`${t.hostname}: ${String(error)}`);
            }
            resolve();
          })();
        }, Math.random() * FIX_WINDOW_MS);
        timers.add(timer);
      });
    for (let i = 0; i < tracked.length; i++) {
      const wait = started + i * STAGGER_MS - Date.now();
      if (wait > 0) await sleep(wait);
      const t = tracked[i];
      await create(t);
      if (t.scenario === 'a') t.correctAt = t.createdAt;
      else fixes.push(fix(t));
    }
    const createdSeconds = (Date.now() - started) / 1000;
    console.log(
      `  created ${tracked.length} domains in ${createdSeconds.toFixed(1)} s; waiting for the fixes and the edge`,
    );
    await Promise.all(fixes);
    const deadline = tracked[tracked.length - 1].createdAt! + DEADLINE_AFTER_LAST_MS;
    let lastReport = 0;
    while (Date.now() < deadline && tracked.some((t) => t.servedAt === undefined)) {
      await sleep(500);
      if (Date.now() - lastReport > 30_000) {
        lastReport = Date.now();
        console.log(`  served ${tracked.filter((t) => t.servedAt !== undefined).length} of ${tracked.length}`);
      }
    }
    await watcher.stop();
    const elapsed = Date.now() - started;
    const cpu = {
      service: cpuSeconds(service.proc) - cpuBefore.service,
      pebble: pebble.cpuSeconds() - cpuBefore.pebble,
      gate: cpuSeconds(gate.proc) - cpuBefore.gate,
      dns: cpuSeconds(dns.proc) - cpuBefore.dns,
      own: (() => {
        const u = process.cpuUsage(cpuBefore.own);
        return (u.user + u.system) / 1e6;
      })(),
    };
    const loadAfter = loadavg().map((l) => round(l, 2));

    // What each domain says of its order (the attempts), and the DNS server's log of the probes and CAA climbs.
    const attemptsOf = new Map<string, { at: string; outcome: string; code?: string }[]>();
    const statusOf = new Map<string, string>();
    for (const t of tracked) {
      const res = await json(`${api}/v1/domains/${t.id}`, 'GET', apiKey);
      const domain = res.body.domain as {
        status: string;
        certificate?: { attempts?: { at: string; outcome: string; code?: string }[] };
      };
      attemptsOf.set(t.hostname, domain.certificate?.attempts ?? []);
      statusOf.set(t.hostname, domain.status);
    }
    const queries = new Map<string, { cname: number[]; caa: number[] }>();
    for (const [name, type, at] of await dns.log(SUFFIX, ['CNAME', 'CAA'])) {
      const q = queries.get(name) ?? { cname: [], caa: [] };
      (type === 'CNAME' ? q.cname : q.caa).push(at);
      queries.set(name, q);
    }
    const orders = duplicateOrders(proxy, SUFFIX);
    const failedAttempts = [...attemptsOf.values()].flat().filter((a) => a.outcome !== 'issued');
    const output = service.proc.output();

    const missing = tracked.filter((t) => t.servedAt === undefined || t.correctAt === undefined);
    for (const t of missing) t.servedAt = deadline; // counted at the deadline: the figures are then lower bounds
    const by = (scenario: Scenario) => tracked.filter((t) => t.scenario === scenario);
    const stages = new Map(tracked.map((t) => [t.hostname, stagesOf(t, queries, attemptsOf.get(t.hostname) ?? [])]));
    const totals = (scenario: Scenario) => by(scenario).map((t) => stages.get(t.hostname)!.total);
    const stat = (scenario: Scenario, p: 50 | 95 | 100) =>
      s(p === 100 ? Math.max(...totals(scenario)) : percentile(totals(scenario), p));
    const model = modelledProbeWaits();
    const stageLine = (scenario: Scenario) => {
      const st = by(scenario).map((t) => stages.get(t.hostname)!);
      return (
        `DNS correct -> the probe that saw it: ${spread(st.map((x) => x.toProbe))}; ` +
        `probe -> order dequeued (its CAA climb): ${spread(st.map((x) => x.queue))}; ` +
        `CAA climb and budget: ${spread(st.map((x) => x.caaAndBudget))}; ` +
        `order at the CA (attempts[].at -> certificate stored): ${spread(st.map((x) => x.caOrder))}; ` +
        `stored -> served by the edge: ${spread(st.map((x) => x.toEdge))}`
      );
    };
    const label = {
      a: '(a) DNS right before creation: 201 -> served',
      b: '(b) DNS fixed later, no check: fix -> served',
      c: '(c) DNS fixed, then POST /check: fix -> served',
    };
    const points = [
      [50, 'p50'],
      [95, 'p95'],
      [100, 'max'],
    ] as const;
    /** p50, p95 (goal 60 s) and max against (c)'s, then p95 against the stretch goal (15 s). */
    const againstFloor = (scenario: 'a' | 'b'): Figure[] => [
      ...points.map(([p, name]) =>
        figure({
          label: `${label[scenario]}, ${name}`,
          value: stat(scenario, p),
          unit: 's',
          baseline: { label: `(c) ${name}`, value: stat('c', p) },
          ...(p === 95 ? { goal: { of: 'value' as const, atMost: 60 } } : {}),
        }),
      ),
      figure({
        label: `${label[scenario]}, p95 (stretch goal)`,
        value: stat(scenario, 95),
        unit: 's',
        goal: { of: 'value', atMost: 15 },
      }),
    ];
    const figures: Figure[] = [
      ...againstFloor('a'),
      ...againstFloor('b'),
      ...points.map(([p, name]) => figure({ label: `${label.c}, ${name}`, value: stat('c', p), unit: 's' })),
    ];
    figures.push(
      figure({
        label: 'Hostnames ordered more than once (newOrder through the proxy)',
        value: orders.repeated,
        unit: '',
        goal: { of: 'value', atMost: 0 },
      }),
    );
    for (const f of figures.filter((x) => x.unit === 's'))
      console.log(`  ${f.label}: ${f.value} s${f.baseline ? ` vs ${f.baseline.value} s` : ''}`);

    const checks = by('c');
    return {
      method:
        `One dist/apps/standalone process (api, node and edge in one; PostgreSQL, NATS with a private prefix), ` +
        `MONITOR_INTERVAL_SECONDS=${INTERVAL_S} (the default), ACME_CONCURRENCY=${ACME_CONCURRENCY}, RATE_LIMITS=off, ` +
        `ACME_LIMITS raised (100,000 new orders per 3 h and per registered domain, so our count of the CA's limits never ` +
        `binds). The CA is Pebble ${pebbleVersion()} (Debian's /usr/bin/pebble, PEBBLE_VA_NOSLEEP=1, no rejected good ` +
        `nonces, no authorization reuse) behind test/support's ACME proxy (records every newOrder; adds ARI to the ` +
        `directory) and a gate of ours that lets one POST reach Pebble at a time (Pebble 2.4.0 deadlocks under ` +
        `concurrent load: bench/certificates/serial-gate.main.ts), configured as ACME_DIRECTORY_URL, ACME_CA_FILE and ` +
        `ACME_CAA_IDENTITIES=letsencrypt.org. Pebble ` +
        `validates HTTP-01 for real against the edge's HTTP port, resolving through the same loopback DNS server as ` +
        `the service (test/support's, in a process of its own, records changed over a control port). ` +
        `${PER_SCENARIO} domains per scenario, ${PER_SCENARIO * 3} in all, each under a registered domain of its own ` +
        `(shop.<x>${SUFFIX}), created one every ${STAGGER_MS} ms with the scenarios interleaved (a, b, c, a, ...) after ` +
        `one warm-up domain (the first order registers the ACME account; not counted). (a): the CNAME to the edge ` +
        `target exists before POST /v1/domains; time from its 201. (b): the CNAME points elsewhere ` +
        `(${WRONG_TARGET}) at creation and is changed to the edge target at a uniformly random moment in the first ` +
        `${FIX_WINDOW_MS / 1000} s; nothing else is done; time from the change. (c): the same, then ` +
        `POST /v1/domains/{id}/check right after the change; time from the change: the order starts at once, the floor ` +
        `and the same-run baseline of (a) and (b). Served: a TLS handshake with the edge's HTTPS port, SNI the ` +
        `hostname, verified by Node against Pebble's root (fetched from its management port) with its hostname check; ` +
        `the benchmark looks for new rows in \`certificates\` every 250 ms and then handshakes every 100 ms until it ` +
        `succeeds, so a figure can be late by about 0.35 s, never early. The stages below split each time with the ` +
        `DNS server's query log (the first CNAME question for the name after DNS was right is the probe that saw it; ` +
        `the first CAA question after that opens the order, which climbs CAA first), the domain's ` +
        `certificate.attempts[].at (the order reaching the CA, after the queue and the budget) and certificates.created_at.`,
      figures,
      details: {
        'Domains served / created': `${tracked.length - missing.length} / ${tracked.length}${
          missing.length
            ? ` (${missing.length} not served by the deadline, counted at the deadline: ${missing
                .slice(0, 3)
                .map((t) => `${t.hostname} ${statusOf.get(t.hostname)}`)
                .join(', ')})`
            : ''
        }`,
        Creation: `${tracked.length} domains in ${round(createdSeconds, 1)} s`,
        'Stages, (a)': stageLine('a'),
        'Stages, (b)': stageLine('b'),
        'Stages, (c)': stageLine('c'),
        [`(b) modelled: wait from a fix uniform in 0-${FIX_WINDOW_MS / 1000} s to the next back-off probe (${probeTimes().join(', ')} s after creation; no phase slot, no order)`]: `p50 ${round(percentile(model, 50), 1)} s, p95 ${round(percentile(model, 95), 1)} s, max ${round(Math.max(...model), 1)} s`,
        '(c) POST /check answer time': `p50 ${s(
          percentile(
            checks.map((t) => t.checkMs ?? 0),
            50,
          ),
        )} s, p95 ${s(
          percentile(
            checks.map((t) => t.checkMs ?? 0),
            95,
          ),
        )} s; statuses ${[...new Set(checks.map((t) => t.checkStatus))].join(', ')}`,
        'Orders (newOrder through the proxy) / hostnames ordered / ordered more than once': `${orders.orders} / ${orders.hostnames} / ${orders.repeated}${orders.examples.length ? ` (${orders.examples.join(', ')})` : ''}`,
        'Certificates Pebble issued (its log, warm-up included)': pebble.issued(),
        'Serial gate in front of Pebble': describeGate(await gate.stats()),
        'Order attempts that failed (certificate.attempts)': failedAttempts.length
          ? describeCounts(
              failedAttempts.reduce<Record<string, number>>(
                (acc, a) => ((acc[a.code ?? a.outcome] = (acc[a.code ?? a.outcome] ?? 0) + 1), acc),
                {},
              ),
            )
          : 0,
        'Warnings and errors logged by the service': describeCounts(warnings(output)),
        'DNS fixes that failed': fixErrors.length ? fixErrors.slice(0, 3).join('; ') : 0,
        'Edge handshakes tried (failed ones included) / domains': `${tracked.reduce((a, t) => a + t.handshakes, 0)} / ${tracked.length}`,
        'CPU over the measured run (100% = one core)': `standalone ${percent(cpu.service, elapsed)}, Pebble ${percent(cpu.pebble, elapsed)}, serial gate ${percent(cpu.gate, elapsed)}, DNS server ${percent(cpu.dns, elapsed)}, benchmark process (ACME proxy, handshakes, polling) ${percent(cpu.own, elapsed)}`,
        'Load average (1, 5, 15 min) before / after the measured run': `${load.before.join(', ')} / ${loadAfter.join(', ')}`,
        'Measured run': `${round(elapsed / 1000)} s`,
      },
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await stopAll();
    await proxy?.stop().catch(() => undefined);
    await gate?.stop().catch(() => undefined);
    await pebble?.stop().catch(() => undefined);
    await pg.end();
  }
}

export const certificatesTimeToHttpsBench: Benchmark = {
  name: 'certificates.time-to-https',
  area: CERTIFICATES_AREA,
  order: 2,
  title: 'Time to HTTPS: from correct DNS to the certificate served by the edge (Pebble, HTTP-01, loopback DNS)',
  timeoutMs: 20 * 60_000,
  run,
};

import { loadavg } from 'node:os';
import type { Pool } from 'pg';
import { AcmeClient } from '../../libs/certificates/src/acme/acme-client';
import { AcmeHttp } from '../../libs/certificates/src/acme/acme-http';
import { AccountKey } from '../../libs/certificates/src/acme/acme-jws';
import { certificateRequest } from '../../libs/certificates/src/acme/certificate-files';
import type { DnsRecord, DnsZones } from '../../test/support/dns-server';
import {
  cpuSeconds,
  createWorkspace,
  databaseCpu,
  databaseCpuDelta,
  fixtures,
  json,
  percent,
  startNode,
} from '../domains/service';
import { pool, waitForPlacement } from '../lib/cluster';
import { Child, stopAll } from '../lib/processes';
import { percentile, round, sleep } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { CERTIFICATES_AREA } from './area';
import {
  BenchPebble,
  ControlledDns,
  describeCounts,
  duplicateOrders,
  freePort,
  keepLogs,
  pebbleCanary,
  pebbleVersion,
  startApiWith,
  startBenchPebble,
  startControlledDns,
  startProxy,
  startSerialGate,
  describeGate,
  subtractGate,
  warnings,
} from './stack';

/** 10,000 hostnames; fewer where 2 cores cannot issue them within the time limit (see the method). */
const DOMAINS = Number(process.env.BENCH_CERT_DOMAINS ?? 10_000);
const NODES = ['n1', 'n2', 'n3'];
const ACME_CONCURRENCY = Number(process.env.BENCH_CERT_ACME_CONCURRENCY ?? 16);
const BULK = 100;
/** Concurrent bulk requests of the importing workspace. */
const IMPORTERS = Number(process.env.BENCH_CERT_IMPORTERS ?? 1);
/** The other workspace connects its one domain once this share of the import is sent. */
const FAIR_AT = 0.5;
/** The raw ACME loop (the baseline): warm-up, then the measured window. */
const RAW_WARMUP_MS = 5_000;
const RAW_MS = Number(process.env.BENCH_CERT_RAW_MS ?? 30_000);
/** How long issuance may take after the import has started before the benchmark gives up. */
const ISSUE_LIMIT_MS = Number(process.env.BENCH_CERT_LIMIT_MS ?? 13 * 60_000);
const INTERVAL_S = 300;
const SUFFIX = '-scale-bench.com';
const hostnameOf = (i: number) => `www.s${String(i).padStart(5, '0')}${SUFFIX}`;
const FAIR_HOSTNAME = `shop.fair${SUFFIX}`;
const ISSUER = 'pebble';

/**
 * The baseline: the service's own ACME client (AcmeClient, AcmeHttp, AccountKey, certificateRequest)
 * with no service around it, `concurrency` orders back to back against the same proxy and Pebble:
 * new order, authorization, HTTP-01 answer and poll, CSR and finalize with poll, download, as
 * AcmeIssuers.issue does minus the database. Certificates per minute in the window.
 */
async function rawLoop(directoryUrl: string, caFile: string, concurrency: number) {
  const http = new AcmeHttp(caFile);
  const client = new AcmeClient(http, directoryUrl, await AccountKey.fromPem(AccountKey.generate()));
  await client.register({});
  let n = 0;
  let issued = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  const issueOne = async () => {
    const name = `raw${n++}.raw-baseline.com`;
    const deadline = new Date(Date.now() + 60_000);
    const order = await client.newOrder([name]);
    for (const url of order.authorizations) {
      const authz = await client.authorization(url);
      if (authz.status === 'valid') continue;
      const challenge = authz.challenges.find((c) => c.type === 'http-01');
      if (!challenge) throw new Error('no http-01 challenge');
      await client.validate(challenge, name, deadline);
    }
    const request = await certificateRequest([name]);
    const finalized = await client.finalize(order, request.csrDer, deadline);
    await client.certificate(finalized.certificate as string);
  };
  const started = Date.now();
  const windowStart = started + RAW_WARMUP_MS;
  const end = windowStart + RAW_MS;
  const cpuBefore = { own: process.cpuUsage() };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t0 = Date.now();
        try {
          await issueOne();
          const t1 = Date.now();
          if (t1 >= windowStart && t1 <= end) {
            issued++;
            latencies.push(t1 - t0);
          }
        } catch (error) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  const own = process.cpuUsage(cpuBefore.own);
  await http.close();
  return {
    perMinute: (issued * 60_000) / RAW_MS,
    issued,
    errors,
    firstError,
    p50: percentile(latencies, 50),
    ownCpu: (own.user + own.system) / 1e6,
    elapsedMs: Date.now() - started,
  };
}

/** Certificates stored so far, every second: the issuance timeline. */
function watchCertificates(pg: Pool) {
  const timeline: { at: number; count: number }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await pg.query<{ n: string }>('select count(*) as n from certificates');
      timeline.push({ at: Date.now(), count: Number(rows[0].n) });
      await sleep(1_000);
    }
  })();
  return {
    timeline,
    latest: () => timeline[timeline.length - 1]?.count ?? 0,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** When the count first reached `n` (interpolated within the second it did). */
function reachedAt(timeline: { at: number; count: number }[], n: number): number | undefined {
  for (let i = 0; i < timeline.length; i++) {
    if (timeline[i].count < n) continue;
    if (i === 0) return timeline[0].at;
    const prev = timeline[i - 1];
    const cur = timeline[i];
    return prev.at + ((n - prev.count) / Math.max(1, cur.count - prev.count)) * (cur.at - prev.at);
  }
  return undefined;
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 3);
  let pebble: BenchPebble | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let gate: Awaited<ReturnType<typeof startSerialGate>> | undefined;
  let dns: ControlledDns | undefined;
  const logged: Child[] = [];
  let canaryStop: (() => Promise<void>) | undefined;
  try {
    const { EDGE_TARGET, ORIGIN_URL, domainZones } = fixtures();
    const right: DnsRecord[] = [{ type: 'CNAME', data: EDGE_TARGET }];
    const hostnames = Array.from({ length: DOMAINS }, (_, i) => hostnameOf(i));
    // The edge target resolves to loopback, where nothing listens on the HTTPS port: a served-certificate
    // check is refused at once (an unreachable edge judges nothing) instead of timing out.
    const zones: DnsZones = {
      ...domainZones(),
      [EDGE_TARGET]: [{ type: 'A', data: '127.0.0.1' }],
      [FAIR_HOSTNAME]: right,
    };
    for (const h of hostnames) zones[h] = right;
    dns = await startControlledDns(zones);
    const closedPort = await freePort();
    pebble = await startBenchPebble({ dnsServer: dns.address, httpPort: closedPort, alwaysValid: true });
    gate = await startSerialGate(pebble);
    proxy = await startProxy(gate);

    const concurrency = NODES.length * ACME_CONCURRENCY;
    console.log(`  raw ACME loop, ${concurrency} in flight, ${RAW_MS / 1000} s`);
    const raw = await rawLoop(proxy.directoryUrl, proxy.caFile, concurrency);
    console.log(`  raw: ${round(raw.perMinute)}/min (${raw.issued} in the window, ${raw.errors} errors)`);
    const pebbleAfterRaw = pebble.issued();
    const gateAfterRaw = await gate.stats();

    const issuers = JSON.stringify([
      {
        name: ISSUER,
        directoryUrl: proxy.directoryUrl,
        caFile: proxy.caFile,
        caaIdentities: ['letsencrypt.org'],
        limits: {
          new_orders: { capacity: 1_000_000, periodSeconds: 10_800 },
          certificates_per_domain: { capacity: 1_000_000, periodSeconds: 604_800 },
        },
      },
    ]);
    const settings = {
      ACME_ISSUERS: issuers,
      ACME_CONCURRENCY: String(ACME_CONCURRENCY),
      MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
      EDGE_CNAME_TARGET: EDGE_TARGET,
      EDGE_IPV4: '127.0.0.1',
      EDGE_HTTPS_PORT: String(closedPort),
    };
    const api = await startApiWith(env, dns.address, settings);
    const nodes: Child[] = [];
    for (const id of NODES) nodes.push((await startNode(env, dns.address, id, settings)).proc);
    logged.push(api.proc, ...nodes);
    await waitForPlacement(pg, NODES, 90_000, nodes);
    const bulk = await createWorkspace(api.url);
    const other = await createWorkspace(api.url);

    const canary = await pebbleCanary(gate);
    canaryStop = canary.stop;
    const watcher = watchCertificates(pg);
    const cpuBefore = {
      nodes: nodes.map(cpuSeconds),
      api: cpuSeconds(api.proc),
      pebble: pebble.cpuSeconds(),
      gate: cpuSeconds(gate.proc),
      dns: cpuSeconds(dns.proc),
      own: process.cpuUsage(),
      db: await databaseCpu(pg),
    };
    const loadBefore = loadavg().map((l) => round(l, 2));
    const importStarted = Date.now();
    const chunks: string[][] = [];
    for (let i = 0; i < hostnames.length; i += BULK) chunks.push(hostnames.slice(i, i + BULK));
    const fairAfter = Math.floor(chunks.length * FAIR_AT);
    let sent = 0;
    let created = 0;
    const failures: string[] = [];
    const fair: { createdAt?: number; id?: string } = {};
    const connectFair = async () => {
      const res = await json(`${api.url}/v1/domains`, 'POST', other.apiKey, {
        hostname: FAIR_HOSTNAME,
        originUrl: ORIGIN_URL,
      });
      if (res.status !== 201)
        throw new Error(`POST /v1/domains ${FAIR_HOSTNAME}: ${res.status} ${JSON.stringify(res.body)}`);
      fair.createdAt = Date.now();
      fair.id = res.body.domain.id as string;
    };
    let fairPromise: Promise<void> | undefined;
    await Promise.all(
      Array.from({ length: IMPORTERS }, async () => {
        while (sent < chunks.length) {
          const chunk = chunks[sent++];
          if (sent === fairAfter + 1) fairPromise = connectFair();
          const res = await json(`${api.url}/v1/domains/bulk`, 'POST', bulk.apiKey, {
            domains: chunk.map((hostname) => ({ hostname, originUrl: ORIGIN_URL })),
          });
          if (res.status !== 200)
            throw new Error(`POST /v1/domains/bulk: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
          created += Number(res.body.created);
          for (const r of res.body.results as { status: number; error?: { error: string } }[])
            if (r.status !== 201) failures.push(`${r.status} ${r.error?.error ?? ''}`);
        }
      }),
    );
    await fairPromise;
    const importSeconds = (Date.now() - importStarted) / 1000;
    console.log(
      `  imported ${created} of ${DOMAINS} in ${importSeconds.toFixed(1)} s (${failures.length} failed); issuing`,
    );
    if (created < DOMAINS * 0.99)
      throw new Error(`Only ${created} of ${DOMAINS} domains were created: ${failures.slice(0, 3).join('; ')}`);

    const target = created + 1;
    const deadline = importStarted + ISSUE_LIMIT_MS;
    let lastReport = 0;
    while (Date.now() < deadline && watcher.latest() < target && canary.hungAt() === undefined) {
      await sleep(1_000);
      if (Date.now() - lastReport > 30_000) {
        lastReport = Date.now();
        console.log(
          `  ${watcher.latest()} of ${target} certificates after ${round((Date.now() - importStarted) / 1000)} s`,
        );
      }
    }
    await watcher.stop();
    await canary.stop();
    const hungAt = canary.hungAt();
    if (hungAt !== undefined) {
      const before = watcher.timeline.filter((p) => p.at <= hungAt).pop()?.count ?? 0;
      throw new Error(
        `Pebble stopped answering ${round((hungAt - importStarted) / 1000)} s into the import, after ${before} ` +
          `certificates (${round((before * 60_000) / Math.max(1, hungAt - importStarted))}/min until then; its ` +
          `MemoryStore deadlock, see the notes): ${canary.lastError()}`,
      );
    }
    const endedAt = Date.now();
    const elapsed = endedAt - importStarted;
    const cpu = {
      nodes: nodes.map((n, i) => cpuSeconds(n) - cpuBefore.nodes[i]),
      api: cpuSeconds(api.proc) - cpuBefore.api,
      pebble: pebble.cpuSeconds() - cpuBefore.pebble,
      gate: cpuSeconds(gate.proc) - cpuBefore.gate,
      dns: cpuSeconds(dns.proc) - cpuBefore.dns,
      own: (() => {
        const u = process.cpuUsage(cpuBefore.own);
        return (u.user + u.system) / 1e6;
      })(),
      db: databaseCpuDelta(cpuBefore.db, await databaseCpu(pg)),
    };
    const loadAfter = loadavg().map((l) => round(l, 2));
    const timeline = watcher.timeline;
    const issuedCount = watcher.latest();

    // Per domain: created (database clock, the same machine), the issued attempt's start, the certificate stored.
    const { rows } = await pg.query<{
      hostname: string;
      workspace_id: string;
      created: Date;
      stored: Date | null;
      attempts: { at: string; outcome: string; code?: string; message?: string }[] | null;
      status: string;
      error_code: string | null;
      retry_at: string | null;
    }>(
      `select d.hostname, d.workspace_id, d.created_at as created, c.created_at as stored,
              d.state->'certificateAttempts' as attempts, d.status,
              d.state->>'certificateErrorCode' as error_code, d.state->>'certificateRetryAt' as retry_at
         from domains d left join certificates c on c.domain_id = d.id`,
    );
    const fairRow = rows.find((r) => r.hostname === FAIR_HOSTNAME);
    const bulkRows = rows.filter((r) => r.hostname !== FAIR_HOSTNAME);
    const toCertificate = bulkRows.filter((r) => r.stored).map((r) => r.stored!.getTime() - r.created.getTime());
    const issuedAttempt = (r: (typeof rows)[number]) =>
      [...(r.attempts ?? [])].reverse().find((a) => a.outcome === 'issued');
    const waitBeforeOrder = bulkRows.flatMap((r) => {
      const a = issuedAttempt(r);
      return a ? [Date.parse(a.at) - r.created.getTime()] : [];
    });
    const orderTime = bulkRows.flatMap((r) => {
      const a = issuedAttempt(r);
      return a && r.stored ? [r.stored.getTime() - Date.parse(a.at)] : [];
    });
    // The DNS server's log splits the wait: the first CNAME question after creation is the first probe
    // (which queues the order), the first CAA question after it the order leaving the queue (CAA climb first).
    const queries = new Map<string, { cname: number[]; caa: number[] }>();
    for (const [name, type, at] of await dns.log(SUFFIX, ['CNAME', 'CAA'])) {
      const q = queries.get(name) ?? { cname: [], caa: [] };
      (type === 'CNAME' ? q.cname : q.caa).push(at);
      queries.set(name, q);
    }
    const split = (r: (typeof rows)[number], createdAt = r.created.getTime()) => {
      const q = queries.get(r.hostname) ?? { cname: [], caa: [] };
      const probe = q.cname.find((at) => at >= createdAt);
      const dequeued = probe !== undefined ? q.caa.find((at) => at >= probe) : undefined;
      return {
        toProbe: probe !== undefined ? probe - createdAt : undefined,
        queue: probe !== undefined && dequeued !== undefined ? dequeued - probe : undefined,
      };
    };
    const splits = bulkRows.map((r) => split(r));
    const known = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined);
    const toProbe = known(splits.map((x) => x.toProbe));
    const queued = known(splits.map((x) => x.queue));
    const failedAttempts = rows.flatMap((r) => (r.attempts ?? []).filter((a) => a.outcome !== 'issued'));
    // Domains left without a certificate: what they say and when they try again.
    const waiting = rows.filter((r) => !r.stored);
    const waitingCodes = waiting.reduce<Record<string, number>>((acc, r) => {
      const key = r.error_code ?? 'no error';
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {});
    const retryIn = known(waiting.map((r) => (r.retry_at ? Date.parse(r.retry_at) - Date.now() : undefined)));
    const firstFailure = failedAttempts.find((a) => a.message)?.message;
    const statuses = rows.reduce<Record<string, number>>(
      (acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc),
      {},
    );
    const fairMs = fairRow?.stored && fair.createdAt ? fairRow.stored.getTime() - fair.createdAt : undefined;
    const fairAttempt = fairRow ? issuedAttempt(fairRow) : undefined;
    const fairSplit = fairRow ? split(fairRow, fair.createdAt) : undefined;

    // The rate: the middle 80% of the certificates (start-up and tail left out), and the whole run.
    // A run cut short by its time limit: from the 10th percentile to the last count it reached.
    const t10 = reachedAt(timeline, Math.ceil(target * 0.1));
    const last = timeline[timeline.length - 1];
    const upTo = Math.min(Math.floor(target * 0.9), last?.count ?? 0);
    const t90 = reachedAt(timeline, upTo);
    const steadyPerMinute =
      t10 !== undefined && t90 !== undefined && t90 > t10
        ? ((upTo - Math.ceil(target * 0.1)) * 60_000) / (t90 - t10)
        : 0;
    const lastAt = reachedAt(timeline, issuedCount) ?? endedAt;
    const firstAt = reachedAt(timeline, 1);
    const overallPerMinute = (issuedCount * 60_000) / Math.max(1, lastAt - importStarted);
    const perMinute: number[] = [];
    for (let m = 0; importStarted + m * 60_000 < lastAt; m++) {
      const at = (t: number) => timeline.filter((p) => p.at <= t).pop()?.count ?? 0;
      perMinute.push(at(importStarted + (m + 1) * 60_000) - at(importStarted + m * 60_000));
    }
    const orders = duplicateOrders(proxy, SUFFIX);
    const nodeWarnings = nodes.reduce<Record<string, number>>((acc, n) => {
      for (const [k, v] of Object.entries(warnings(n.output()))) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {});
    const total = cpu.nodes.reduce((a, b) => a + b, 0) + cpu.api + cpu.pebble + cpu.gate + cpu.dns + cpu.own + cpu.db;
    console.log(
      `  steady ${round(steadyPerMinute)}/min, overall ${round(overallPerMinute)}/min; other workspace's domain ${fairMs !== undefined ? `${round(fairMs / 1000, 1)} s` : 'not issued'}; ${orders.repeated} hostnames ordered twice`,
    );
    const p = (values: number[], q: number) => round(percentile(values, q) / 1000, 1);

    return {
      method:
        `${NODES.length} dist/apps/node processes (ACME_CONCURRENCY=${ACME_CONCURRENCY} each, ` +
        `MONITOR_INTERVAL_SECONDS=${INTERVAL_S}) and one dist/apps/api on PostgreSQL and NATS, resolving through ` +
        `test/support's loopback DNS server (its own process) where every hostname has the CNAME to the edge target ` +
        `before it is created. The CA is Pebble ${pebbleVersion()} with PEBBLE_VA_ALWAYS_VALID=1 (used only in this ` +
        `benchmark: HTTP-01 is answered and polled as always but Pebble does not fetch it, so no edge runs) and ` +
        `PEBBLE_VA_NOSLEEP=1, behind test/support's ACME proxy, which records every newOrder (duplicates per hostname) ` +
        `and a gate of ours between the two that lets one POST reach Pebble at a time (Pebble 2.4.0 deadlocks ` +
        `under concurrent load: bench/certificates/serial-gate.main.ts; the baseline goes through it too), ` +
        `and adds ARI to the directory (each issuance asks for its renewal window, as against Let's Encrypt). ` +
        `ACME_ISSUERS names it with \`limits\` of 1,000,000 new orders per 3 h and per registered domain, so our ` +
        `budget never binds. One workspace imports ${DOMAINS.toLocaleString('en-US')} hostnames (each under a registered ` +
        `domain of its own) with POST /v1/domains/bulk, ${BULK} per request, ${IMPORTERS} request(s) at a time; once ` +
        `${FAIR_AT * 100}% of the requests are sent, a second workspace connects one domain (POST /v1/domains, DNS ` +
        `already right): its time from that 201 to its certificate stored is the fairness figure, beside the median of ` +
        `the imported domains (from each one's created_at). Certificates per minute: rows of \`certificates\` counted ` +
        `every second; the figure is the middle 80% of them (from the 10th to the 90th percentile of the count), the ` +
        `overall rate runs from the first bulk request to the last certificate. Same-run baseline, measured first with ` +
        `nothing else running: the service's own ACME client (libs/certificates AcmeClient, AcmeHttp, AccountKey, ` +
        `certificateRequest) alone in the benchmark process, ${concurrency} orders in flight (${NODES.length} x ` +
        `ACME_CONCURRENCY) back to back through the same proxy and Pebble for ${RAW_MS / 1000} s after ` +
        `${RAW_WARMUP_MS / 1000} s of warm-up: what the CA and the client's polling allow on this machine without ` +
        `the service around them. Every process shares the machine's 2 cores (CPU of each below).`,
      figures: [
        figure({
          label: `Certificates issued per minute, ${NODES.length} nodes, middle 80% of ${DOMAINS.toLocaleString('en-US')}`,
          value: round(steadyPerMinute),
          unit: '/min',
          baseline: {
            label: `the ACME client alone, ${concurrency} in flight, same Pebble`,
            value: round(raw.perMinute),
          },
          goal: { of: 'value', atLeast: 600 },
        }),
        figure({
          label: 'Certificates issued per minute, first bulk request to last certificate',
          value: round(overallPerMinute),
          unit: '/min',
        }),
        figure({
          label: 'Hostnames ordered more than once (newOrder through the proxy)',
          value: orders.repeated,
          unit: '',
          goal: { of: 'value', atMost: 0 },
        }),
        figure({
          label: "Another workspace's domain during the import: 201 -> certificate",
          value: fairMs !== undefined ? round(fairMs / 1000, 1) : ISSUE_LIMIT_MS / 1000,
          unit: 's',
          baseline: { label: 'imported domains, p50 created -> certificate', value: p(toCertificate, 50) },
          goal: { of: 'value', atMost: 60 },
        }),
      ],
      details: {
        'Domains created / certificates stored': `${created + (fair.id ? 1 : 0)} / ${issuedCount}${issuedCount < target ? ` (the time limit of ${ISSUE_LIMIT_MS / 60_000} min came first)` : ''}`,
        Import: `${created.toLocaleString('en-US')} domains in ${round(importSeconds, 1)} s (${round(created / importSeconds)}/s), ${failures.length} items failed${failures.length ? ` (${describeCounts(failures.reduce<Record<string, number>>((acc, f) => ((acc[f] = (acc[f] ?? 0) + 1), acc), {}))})` : ''}`,
        'First certificate, 10%, 90%, last (s after the first bulk request)': [firstAt, t10, t90, lastAt]
          .map((t) => (t !== undefined ? round((t - importStarted) / 1000, 1) : 'n/a'))
          .join(', '),
        'Certificates per minute, minute by minute from the first bulk request': perMinute.join(', '),
        'Imported domains: created -> order started at the CA (first probe 10 s after creation, then the queue)': `p50 ${p(waitBeforeOrder, 50)} s, p95 ${p(waitBeforeOrder, 95)} s, max ${p(waitBeforeOrder, 100)} s`,
        'Imported domains, split by the DNS log: created -> first probe / first probe -> order leaves the queue': `p50 ${p(toProbe, 50)} s, p95 ${p(toProbe, 95)} s, max ${p(toProbe, 100)} s / p50 ${p(queued, 50)} s, p95 ${p(queued, 95)} s, max ${p(queued, 100)} s (${queued.length} told apart)`,
        'Imported domains: order at the CA (attempts[].at -> certificate stored)': `p50 ${p(orderTime, 50)} s, p95 ${p(orderTime, 95)} s, max ${p(orderTime, 100)} s`,
        'Imported domains: created -> certificate stored': `p50 ${p(toCertificate, 50)} s, p95 ${p(toCertificate, 95)} s, max ${p(toCertificate, 100)} s`,
        "Other workspace's domain": fairRow
          ? `created ${fair.createdAt ? round((fair.createdAt - importStarted) / 1000, 1) : '?'} s into the import; order at the CA ${fairAttempt && fair.createdAt ? round((Date.parse(fairAttempt.at) - fair.createdAt) / 1000, 1) : '?'} s after its 201 (first probe ${fairSplit?.toProbe !== undefined ? round(fairSplit.toProbe / 1000, 1) : '?'} s after it, then ${fairSplit?.queue !== undefined ? round(fairSplit.queue / 1000, 1) : '?'} s in the queue); status ${fairRow.status}`
          : 'not created',
        'Orders (newOrder through the proxy) / hostnames ordered / ordered more than once': `${orders.orders} / ${orders.hostnames} / ${orders.repeated}${orders.examples.length ? ` (${orders.examples.join(', ')})` : ''}`,
        'Serial gate in front of Pebble, baseline / service': `${describeGate(gateAfterRaw)} / ${describeGate(
          subtractGate(await gate.stats(), gateAfterRaw),
        )}`,
        'Certificates Pebble issued to the service (its log) / rows in certificates': `${pebble.issued() - pebbleAfterRaw} / ${issuedCount}`,
        'Order attempts that failed (certificate.attempts)': failedAttempts.length
          ? describeCounts(
              failedAttempts.reduce<Record<string, number>>(
                (acc, a) => ((acc[a.code ?? a.outcome] = (acc[a.code ?? a.outcome] ?? 0) + 1), acc),
                {},
              ),
            )
          : 0,
        'Domain statuses at the end': describeCounts(statuses),
        ...(waiting.length
          ? {
              'Domains without a certificate at the end: error code / next try':
                `${describeCounts(waitingCodes)} / ` +
                (retryIn.length
                  ? `in ${round(Math.min(...retryIn) / 1000)} to ${round(Math.max(...retryIn) / 1000)} s`
                  : 'none set'),
            }
          : {}),
        ...(firstFailure ? { 'A failed attempt says': firstFailure } : {}),
        'Warnings and errors logged by the nodes': describeCounts(nodeWarnings),
        'Warnings and errors logged by the api': describeCounts(warnings(api.proc.output())),
        'Baseline: certificates in the window / errors / p50 order time / benchmark process CPU': `${raw.issued} / ${raw.errors}${raw.firstError ? ` (${raw.firstError})` : ''} / ${round(raw.p50 / 1000, 2)} s / ${percent(raw.ownCpu, raw.elapsedMs)}`,
        'CPU from the first bulk request to the end (100% = one core)': `nodes ${cpu.nodes.map((c) => percent(c, elapsed)).join(', ')}; api ${percent(cpu.api, elapsed)}; Pebble ${percent(cpu.pebble, elapsed)}; serial gate ${percent(cpu.gate, elapsed)}; PostgreSQL (this database) ${percent(cpu.db, elapsed)}; DNS server ${percent(cpu.dns, elapsed)}; benchmark process (ACME proxy, import, polling) ${percent(cpu.own, elapsed)}; all ${percent(total, elapsed)} of the machine's 200%`,
        'CPU per certificate (all processes above)': `${round((total * 1000) / Math.max(1, issuedCount))} ms`,
        'Load average (1, 5, 15 min) before / after': `${loadBefore.join(', ')} / ${loadAfter.join(', ')}`,
      },
    };
  } finally {
    await canaryStop?.().catch(() => undefined);
    keepLogs(logged);
    await stopAll();
    await proxy?.stop().catch(() => undefined);
    await gate?.stop().catch(() => undefined);
    await pebble?.stop().catch(() => undefined);
    await pg.end();
  }
}

export const certificatesIssuanceScaleBench: Benchmark = {
  name: 'certificates.issuance-scale',
  area: CERTIFICATES_AREA,
  order: 3,
  title:
    'Certificates issued per minute on 3 nodes (Pebble), duplicate orders, and another workspace during a bulk import',
  timeoutMs: 20 * 60_000,
  run,
};

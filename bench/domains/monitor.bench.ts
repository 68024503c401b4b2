import { shardOf } from '@app/actors';
import { DnsProber, DnsResolver } from '@app/dns';
import { DomainState, probePhaseOf, transition } from '@app/domains';
import type { Pool } from 'pg';
import type { DnsRecord, DnsZones } from '../../test/support/dns-server';
import { startEdgeStandIn } from '../edge/edge-fixtures';
import { sampleMonitorGauges, timeClaim } from '../lib/monitor-claim';
import { formatStages, profileDir, profileStages } from '../lib/cpu-profile-stages';
import { pool } from '../lib/cluster';
import { closedLoop, summarize } from '../lib/load';
import { Child, stopAll } from '../lib/processes';
import { formatNumber, round, sleep } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { DOMAINS_AREA } from './area';
import {
  BenchDns,
  cpuSeconds,
  createDomain,
  databaseCpu,
  databaseCpuDelta,
  createWorkspace,
  fixtures,
  metricSum,
  percent,
  startDns,
  startService,
} from './service';

/** More than the node probes in the warm-up and the window (about 15,000/s for 13 s): the backlog never runs out. */
const DOMAINS = Number(process.env.BENCH_MONITOR_DOMAINS ?? 300_000);
/** MONITOR_CONCURRENCY's default; the baseline runs as many probes in flight. */
const CONCURRENCY = Number(process.env.BENCH_MONITOR_CONCURRENCY ?? 256);
const INTERVAL_S = 300;
const BASELINE_WARMUP_MS = 2_000;
const BASELINE_MS = 8_000;
const WARMUP_MS = 3_000;
const WINDOW_MS = 10_000;
const SUFFIX = 'bench-monitor.com';
/** Rows asked of a timed claim: a quarter of MONITOR_CONCURRENCY. */
const CLAIM_SAMPLE = Math.max(1, Math.floor(CONCURRENCY / 4));
const BATCH = 5_000;

/** Verified with a certificate valid for 60 days and DNS right: the steady state of a live domain. */
function verifiedMachine(created: DomainState, now: Date): DomainState {
  const seen = transition(created, { type: 'probe_observed', dns: 'correct', certificate: 'none' }, now).state;
  const expiresAt = new Date(now.getTime() + 60 * 86_400_000).toISOString();
  const verified = transition(seen, { type: 'certificate_issued', expiresAt }, now).state;
  if (verified.status !== 'verified') throw new Error(`Expected a verified domain, got ${verified.status}`);
  return verified;
}

/**
 * `DOMAINS` rows in `domains`, each a copy of a domain created through the API (id, hostname,
 * phase and machine replaced) on its real shard, due in an hour: `arm` makes them all due at once.
 */
async function seed(pg: Pool, templateId: string, hostnames: string[]): Promise<void> {
  const { rows } = await pg.query<{ state: Record<string, unknown>; workspace_id: string }>(
    'select state, workspace_id from domains where id = $1',
    [templateId],
  );
  const template = rows[0];
  const now = new Date();
  const machine = verifiedMachine(template.state.machine as DomainState, now);
  for (let start = 0; start < hostnames.length; start += BATCH) {
    const batch = hostnames.slice(start, start + BATCH).map((hostname, i) => {
      const id = `dom_benchmon${start + i}`;
      const probePhase = probePhaseOf(id);
      const state = { ...template.state, id, hostname, probePhase, machine, verifiedAt: now.toISOString() };
      return { id, hostname, shard: shardOf(id), probePhase, state: JSON.stringify(state) };
    });
    await pg.query(
      `with t as (
         select * from unnest($2::text[], $3::text[], $4::int[], $5::jsonb[], $6::float8[]) as t(id, hostname, shard, state, phase)
       ), seeded as (
         insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at)
         select id, $1, hostname, shard, 'verified', 'active_ssl', state, 1, now(), now() from t
         returning id
       )
       insert into domain_schedule (id, shard, probe_phase, next_probe_at)
       select id, shard, phase, now() + interval '1 hour' from t join seeded using (id)`,
      [
        template.workspace_id,
        batch.map((r) => r.id),
        batch.map((r) => r.hostname),
        batch.map((r) => r.shard),
        batch.map((r) => r.state),
        batch.map((r) => r.probePhase),
      ],
    );
  }
}

/** Every seeded domain due now or in the last minute (not stale: the node probes them all). */
async function arm(pg: Pool): Promise<void> {
  await pg.query(
    `update domain_schedule set next_probe_at = now() - random() * interval '60 seconds' where id like 'dom_benchmon%'`,
  );
}

/**
 * What this database's backends are running, sampled every 100 ms until `until`: how many samples
 * caught each kind of statement active (a time share of the database's work).
 */
async function sampleDatabase(pg: Pool, until: number): Promise<Record<string, number>> {
  const kinds: Record<string, number> = {};
  while (Date.now() < until) {
    const { rows } = await pg.query<{ query: string }>(
      `select left(query, 80) as query from pg_stat_activity
        where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
    );
    for (const { query } of rows) {
      const q = query.replace(/\s+/g, ' ').trim().toLowerCase();
      const kind = q.startsWith('with due as')
        ? 'monitor claim'
        : q.startsWith('select state, version from domains')
          ? 'actor activation (snapshot read)'
          : 'other';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    await sleep(100);
  }
  return kinds;
}

/** Median of `n` timed claims. */
async function medianClaim(pg: Pool, shards: number[], limit: number, n = 5) {
  const runs = [];
  for (let i = 0; i < n; i++) runs.push(await timeClaim(pg, shards, INTERVAL_S, limit));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor(n / 2)];
}

interface NodeSample {
  at: number;
  probes: number;
  byOutcome: Record<string, number>;
  probeSecondsSum: number;
  probeCount: number;
  claimSecondsSum: number;
  claims: number;
  claimed: number;
  nodeCpu: number;
  dnsCpu: number;
  cnameQueries: number;
}

const OUTCOMES = ['correct', 'incorrect', 'not_resolving', 'origin_blocked', 'lookup_failed', 'error'];

async function sampleNode(metricsUrl: string, node: Child, dns: BenchDns): Promise<NodeSample> {
  const [text, stats] = await Promise.all([(await fetch(metricsUrl)).text(), dns.stats()]);
  const byOutcome = Object.fromEntries(
    OUTCOMES.map((o) => [o, metricSum(text, 'monitor_probes_total', `outcome="${o}"`)]),
  );
  return {
    at: Date.now(),
    probes: Object.values(byOutcome).reduce((a, b) => a + b, 0),
    byOutcome,
    probeSecondsSum: metricSum(text, 'monitor_probe_seconds_sum'),
    probeCount: metricSum(text, 'monitor_probe_seconds_count'),
    claimSecondsSum: metricSum(text, 'monitor_claim_seconds_sum'),
    claims: metricSum(text, 'monitor_claim_seconds_count'),
    claimed: metricSum(text, 'monitor_claimed_domains_total'),
    nodeCpu: cpuSeconds(node),
    dnsCpu: cpuSeconds(dns.proc),
    cnameQueries: stats.byType.CNAME ?? 0,
  };
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 4);
  let edge: Awaited<ReturnType<typeof startEdgeStandIn>> | undefined;
  try {
    const { EDGE_TARGET, domainZones } = fixtures();
    edge = await startEdgeStandIn(SUFFIX);
    const hostnames = Array.from({ length: DOMAINS }, (_, i) => `m${i}.${SUFFIX}`);
    const toEdge: DnsRecord[] = [{ type: 'CNAME', data: EDGE_TARGET }];
    const zones: DnsZones = {
      ...domainZones(),
      [EDGE_TARGET]: [{ type: 'A', data: edge.ip }],
      [`template.${SUFFIX}`]: toEdge,
    };
    for (const hostname of hostnames) zones[hostname] = toEdge;
    const dns = await startDns(zones);
    const { api, node } = await startService(env, pg, dns.address, {
      MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
      MONITOR_CONCURRENCY: String(CONCURRENCY),
      EDGE_IPV4: edge.ip,
      PROBE_TLS_PORT: edge.port,
    });
    const { apiKey } = await createWorkspace(api.url);
    const template = await createDomain(api.url, apiKey, `template.${SUFFIX}`);
    await api.proc.stop();
    const seedStart = Date.now();
    await seed(pg, template.domain.id, hostnames);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    console.log(`  seeded ${DOMAINS} domains in ${seedSeconds.toFixed(1)} s`);

    // Baseline first, while the node has nothing due: the same probe (DnsProber over DnsResolver,
    // exactly the node's queries) in a closed loop from this process against the same DNS server.
    const prober = new DnsProber(new DnsResolver({ servers: [dns.address] }), {
      cnameTarget: EDGE_TARGET,
      ipv4: [edge.ip],
    });
    const probe = async () => {
      const result = await prober.probe(hostnames[Math.floor(Math.random() * hostnames.length)]);
      if (result.dns !== 'correct') throw new Error(`raw probe saw ${result.dns}`);
    };
    await closedLoop(CONCURRENCY, BASELINE_WARMUP_MS, probe);
    const idleNodeCpu = cpuSeconds(node.proc);
    const baseDnsBefore = { cpu: cpuSeconds(dns.proc), stats: await dns.stats(), at: Date.now() };
    const ownCpuBefore = process.cpuUsage();
    const rawRun = await closedLoop(CONCURRENCY, BASELINE_MS, probe);
    const raw = summarize([rawRun]);
    const rawMeanMs = rawRun.latencies.reduce((a, b) => a + b, 0) / Math.max(1, rawRun.latencies.length);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const baseDnsCpu = cpuSeconds(dns.proc) - baseDnsBefore.cpu;
    const baseQueries = (await dns.stats()).queries - baseDnsBefore.stats.queries;
    const baseMs = Date.now() - baseDnsBefore.at;
    // The node's own background (leases, membership, outbox relay, metrics) with nothing due.
    const idleNodeCpuRate = (cpuSeconds(node.proc) - idleNodeCpu) / (baseMs / 1000);
    // A UDP answer lost on a busy machine costs the resolver a 2 s timeout; a few are tolerated and reported.
    if (raw.errors > raw.ok / 100) throw new Error(`${raw.errors} raw probes failed: ${raw.firstError}`);
    console.log(`  raw resolver: ${formatNumber(raw.perSecond)} probes/s p50 ${raw.p50.toFixed(2)} ms`);

    // The node: every seeded domain due at once, more than it can probe in the warm-up and the window.
    const metricsUrl = `${node.url}/metrics`;
    const armedAt = (await sampleNode(metricsUrl, node.proc, dns)).probes;
    await arm(pg);
    // An idle monitor sleeps until its next known due domain (15 s at most): rows made due by hand are
    // found at its next claim. The warm-up starts with its first probe of them.
    const found = Date.now();
    while ((await sampleNode(metricsUrl, node.proc, dns)).probes === armedAt) {
      if (Date.now() - found > 30_000) throw new Error('The monitor did not start on the due domains within 30 s');
      await sleep(100);
    }
    const foundAfterMs = Date.now() - found;
    await sleep(WARMUP_MS);
    const dbBefore = await databaseCpu(pg);
    const before = await sampleNode(metricsUrl, node.proc, dns);
    const [activity, held] = await Promise.all([
      sampleDatabase(pg, before.at + WINDOW_MS),
      sampleMonitorGauges(metricsUrl, before.at + WINDOW_MS),
    ]);
    const after = await sampleNode(metricsUrl, node.proc, dns);
    const dbCpu = databaseCpuDelta(dbBefore, await databaseCpu(pg));
    const spread = (await dns.stats({ from: before.at, to: after.at })).window;
    const ms = after.at - before.at;
    const probes = after.probes - before.probes;
    const perSecond = (probes * 1000) / ms;
    const outcomes = OUTCOMES.map((o) => [o, after.byOutcome[o] - before.byOutcome[o]] as const).filter(([, n]) => n);
    const meanProbeMs =
      ((after.probeSecondsSum - before.probeSecondsSum) / (after.probeCount - before.probeCount)) * 1000;
    const [{ due }] = (
      await pg.query<{ due: string }>(
        `select count(*) as due from domain_schedule where next_probe_at <= now() and id like 'dom_benchmon%'`,
      )
    ).rows.map((r) => ({ due: Number(r.due) }));
    const [{ written }] = (
      await pg.query<{ written: string }>(
        `select count(*) as written from domains where id like 'dom_benchmon%' and version > 1`,
      )
    ).rows.map((r) => ({ written: Number(r.written) }));
    if (!due) throw new Error('The seeded domains ran out during the window: seed more (BENCH_MONITOR_DOMAINS)');
    console.log(`  window measured: ${after.probes - before.probes} probes; timing claims`);
    // What one claim costs the database (the node stopped): with this backlog due, and with nothing due.
    // A long grace: a profiled node (BENCH_NODE_ARGS=--cpu-prof) writes its profile as it exits.
    await node.proc.stop(30_000);
    const exitedAt = Date.now();
    // With BENCH_NODE_ARGS=--cpu-prof: where the node's CPU went during the window, per probe.
    const dir = profileDir();
    const profile = dir ? profileStages(dir, exitedAt - before.at, exitedAt - after.at) : undefined;
    const allShards = Array.from({ length: 4096 }, (_, i) => i);
    const claimBacklog = await medianClaim(pg, allShards, CLAIM_SAMPLE);
    await pg.query(`update domain_schedule set next_probe_at = now() + interval '1 hour'`);
    const claimIdle = await medianClaim(pg, allShards, CLAIM_SAMPLE);
    if (probes === 0) throw new Error(`The node probed nothing; output:\n${node.proc.output()}`);
    const failed = outcomes.filter(([o]) => o !== 'correct');
    const probeCpuMs = ((after.nodeCpu - before.nodeCpu - (idleNodeCpuRate * ms) / 1000) * 1000) / probes;
    console.log(
      `  node: ${formatNumber(perSecond)} probes/s (${probes} in ${ms} ms; ${outcomes.map(([o, n]) => `${o} ${n}`).join(', ')}), ` +
        `mean probe ${meanProbeMs.toFixed(1)} ms, node CPU ${percent(after.nodeCpu - before.nodeCpu, ms)}, ` +
        `DNS server CPU ${percent(after.dnsCpu - before.dnsCpu, ms)}`,
    );

    return {
      method:
        `One dist/apps/node process (owning all 4096 shards, MONITOR_INTERVAL_SECONDS=${INTERVAL_S}, ` +
        `MONITOR_CONCURRENCY=${CONCURRENCY}) resolving through test/support's loopback DNS server in a process of its ` +
        `own (authoritative, UDP; Node and dns-packet), which holds a CNAME to the edge target for each of ` +
        `${DOMAINS.toLocaleString('en-US')} hostnames. One domain is created through the API (dist/apps/api, stopped ` +
        `afterwards); ${DOMAINS.toLocaleString('en-US')} copies of its row (id, hostname, phase replaced; shard from ` +
        `shardOf) are inserted into \`domains\` as verified with a certificate valid 60 days; after the baseline one ` +
        `update makes them all due within the last minute (none stale), a backlog larger than the node probes in ` +
        `the warm-up and the window. The rate depends on that backlog: each claim sorts every due row of the ` +
        `node's shards (see the claim times below). A probe is then a ` +
        `CNAME query (right: the edge target) that changes nothing, so the actor is not woken and nothing is ` +
        `written; one probe in 288 (SERVED_CHECK_INTERVAL_SECONDS=86400, the default, over a 300 s interval) also reads the ` +
        `certificate the hostname serves over TLS, from a local TLS server standing in for the edge ` +
        `(bench/edge/static-tls.main, a valid wildcard certificate; the edge target's A record points at it). Probes completed per second: the node's ` +
        `monitor_probes_total over ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up, counted from the ` +
        `monitor's first probe of the backlog (an idle monitor finds rows made due by hand at its next claim, ` +
        `within 15 s) (cross-checked with the ` +
        `DNS server's query log). Baseline, measured first in the same run while the node had nothing due: ` +
        `DnsProber.probe() over DnsResolver (exactly the probe's queries) in a closed loop of ${CONCURRENCY} from ` +
        `the benchmark process against the same DNS server, ${BASELINE_MS / 1000} s after ` +
        `${BASELINE_WARMUP_MS / 1000} s of warm-up. The DNS server is one Node thread: its CPU below (100% = one ` +
        `core, saturated) tells whether it bounds either side. The node, the DNS server, PostgreSQL, NATS and the ` +
        `benchmark process share the machine's cores.`,
      figures: [
        figure({
          label: `Probes per second, one node (${DOMAINS.toLocaleString('en-US')} due, ${CONCURRENCY} in flight at most)`,
          value: round(perSecond),
          unit: '/s',
          baseline: { label: 'raw DnsProber loop, same DNS server', value: round(raw.perSecond) },
          goal: { of: 'ratio', atLeast: 0.5 },
        }),
        figure({
          label: 'Probes per second, one node (goal per 2-core node)',
          value: round(perSecond),
          unit: '/s',
          goal: { of: 'value', atLeast: 2_000 },
        }),
        figure({
          label: 'Mean probe time (DNS and actor update)',
          value: round(meanProbeMs, 2),
          unit: 'ms',
          baseline: { label: 'raw probe mean', value: round(rawMeanMs, 2) },
        }),
      ],
      details: {
        ...(perSecond < CONCURRENCY * 1.2 &&
        after.nodeCpu - before.nodeCpu < (0.5 * ms) / 1000 &&
        spread &&
        spread.slotsWithQueries < spread.slots / 2
          ? {
              Reading:
                `about MONITOR_CONCURRENCY (${CONCURRENCY}) probes per second with the node mostly idle and the ` +
                `queries in bursts: the monitor claims one batch of at most MONITOR_CONCURRENCY per 1 s tick and ` +
                `claims nothing more until the next tick, whatever its CPU, the database and the resolver allow`,
            }
          : {}),
        'Seeded domains (verified, due)': DOMAINS,
        'Seeding (SQL insert), s': round(seedSeconds, 1),
        'Probes in the window (monitor_probes_total)': probes,
        'Until the idle monitor found the armed backlog, s': round(foundAfterMs / 1000, 1),
        'CNAME queries the DNS server saw in the window': after.cnameQueries - before.cnameQueries,
        'Outcomes in the window': outcomes.map(([o, n]) => `${o} ${n}`).join(', '),
        'Probes that were not correct': failed.length ? failed.map(([o, n]) => `${o} ${n}`).join(', ') : 0,
        'Seeded domains written (version > 1) by the end': written,
        'Seeded domains still due at the end': due,
        'Probes in flight / claimed domains waiting, mean of the samples every 500 ms (gauges)': `${round(
          held.meanInFlight,
        )} / ${round(held.meanWaiting)} (${held.samples} samples, ${round(held.queueEmpty * 100)}% with none waiting)`,
        'Claims in the window: count / domains per claim / mean time (monitor_claim_seconds)': `${
          after.claims - before.claims
        } / ${round((after.claimed - before.claimed) / Math.max(1, after.claims - before.claims))} / ${(
          ((after.claimSecondsSum - before.claimSecondsSum) / Math.max(1, after.claims - before.claims)) *
          1000
        ).toFixed(1)} ms`,
        'Node CPU during the window': percent(after.nodeCpu - before.nodeCpu, ms),
        'DNS server CPU during the window': percent(after.dnsCpu - before.dnsCpu, ms),
        'PostgreSQL CPU (this database) during the window': percent(dbCpu, ms),
        '100 ms slots of the window in which the DNS server saw any query': spread
          ? `${spread.slotsWithQueries} of ${spread.slots}`
          : 'n/a',
        [`One claim of ${CLAIM_SAMPLE} due domains of all 4096 shards (claimDueDomains, timed after the run)`]:
          `${claimBacklog.ms.toFixed(1)} ms with ${due.toLocaleString('en-US')} due; ${claimIdle.ms.toFixed(1)} ms ` +
          `with none due (${(DOMAINS + 1).toLocaleString('en-US')} rows)`,
        'Database statements caught active (samples every 100 ms over the window)': Object.entries(activity)
          .sort((a, b) => b[1] - a[1])
          .map(([kind, n]) => `${kind} ${n}`)
          .join(', '),
        ...(profile
          ? {
              'Node CPU per probe by stage in the window (node --cpu-prof, self time; the profiler adds its own cost)':
                `${(profile.busyMs / probes).toFixed(3)} ms per probe: ` + formatStages(profile.stages, probes, 'ms'),
            }
          : {}),
        'Node CPU with nothing due (during the raw loop)': percent(idleNodeCpuRate, 1000),
        'Node CPU per probe, background taken out (ms)': round(probeCpuMs, 3),
        'Ceilings if claims were free: one core / node CPU per probe; MONITOR_CONCURRENCY / mean probe time': `${formatNumber(1000 / probeCpuMs)}/s; ${formatNumber((CONCURRENCY * 1000) / meanProbeMs)}/s`,
        'Raw loop: probes measured / p50 / p99': `${raw.ok} / ${raw.p50.toFixed(2)} ms / ${raw.p99.toFixed(2)} ms`,
        'Raw loop: probes failed (resolver timeouts: UDP answers lost)': raw.errors
          ? `${raw.errors} (${raw.firstError})`
          : 0,
        'Raw loop: DNS queries per second': round((baseQueries * 1000) / baseMs),
        'Raw loop: DNS server CPU / benchmark process CPU': `${percent(baseDnsCpu, baseMs)} / ${percent(
          (ownCpu.user + ownCpu.system) / 1e6,
          baseMs,
        )}`,
      },
    };
  } finally {
    await stopAll();
    await pg.end();
    edge?.cleanup();
  }
}

export const domainsMonitorBench: Benchmark = {
  name: 'domains.monitor',
  area: DOMAINS_AREA,
  order: 3,
  title: 'Monitor probes per second on one node, against the raw resolver on the same DNS server',
  timeoutMs: 300_000,
  run,
};

import { shardOf } from '@app/actors';
import { DnsProber, DnsResolver } from '@app/dns';
import { DomainState, probePhaseOf, transition } from '@app/domains';
import type { Pool } from 'pg';
import type { DnsRecord, DnsZones } from '../../test/support/dns-server';
import { lastEdgeChange, startEdgeStandIn, waitForReplicaCheckpoint } from '../edge/edge-fixtures';
import { MONITOR_LOAD_CHUNK, medianOf, sampleMonitorGauges, timeShardLoad } from '../lib/monitor-read';
import { formatStages, profileDir, profileStages } from '../lib/cpu-profile-stages';
import { pool, waitForCoverage } from '../lib/cluster';
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
  startNode,
  startService,
} from './service';

/**
 * More than the node probes from its first probe to the window's end (up to ~25,000/s for ~20 s): the
 * backlog never runs out (300,000 ran out at 21,000/s).
 */
const DOMAINS = Number(process.env.BENCH_MONITOR_DOMAINS ?? 500_000);
/** MONITOR_CONCURRENCY's default; the baseline runs as many probes in flight. */
const CONCURRENCY = Number(process.env.BENCH_MONITOR_CONCURRENCY ?? 256);
/**
 * MONITOR_INTERVAL_SECONDS, the default. The backlog is one interval's slots: with every shard's
 * watermark one interval back when the node takes the shards on, each domain has exactly one slot
 * between the watermark and now, so all are due at once, none stale (that is past interval + 30 s).
 */
const INTERVAL_S = 300;
const BASELINE_WARMUP_MS = 2_000;
const BASELINE_MS = 8_000;
const WARMUP_MS = 3_000;
const WINDOW_MS = 10_000;
const SUFFIX = 'bench-monitor.com';
/** The most the monitor holds taken and not done: QUEUE_DEPTH (4) sets waiting plus one in flight. */
const HELD_AT_MOST = 5 * CONCURRENCY;
const BATCH = 5_000;
const SHARDS = 4096;

/** Verified with a certificate valid for 60 days and DNS right: the steady state of a live domain. */
function verifiedMachine(created: DomainState, now: Date): DomainState {
  const seen = transition(created, { type: 'probe_observed', dns: 'correct', certificate: 'none' }, now).state;
  const expiresAt = new Date(now.getTime() + 60 * 86_400_000).toISOString();
  const verified = transition(seen, { type: 'certificate_issued', expiresAt }, now).state;
  if (verified.status !== 'verified') throw new Error(`Expected a verified domain, got ${verified.status}`);
  return verified;
}

const seededId = (i: number) => `dom_benchmon${i}`;

/**
 * `DOMAINS` rows in `domains`, each a copy of a domain created through the API (id, hostname,
 * phase and machine replaced) on its real shard. Nothing else: the schedule is the node's, built
 * from these rows when it takes their shards on, so they go in while no node runs.
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
      const id = seededId(start + i);
      const probePhase = probePhaseOf(id);
      const state = { ...template.state, id, hostname, probePhase, machine, verifiedAt: now.toISOString() };
      return { id, hostname, shard: shardOf(id), state: JSON.stringify(state) };
    });
    await pg.query(
      `insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at)
       select id, $1, hostname, shard, 'verified', 'active_ssl', state, 1, now(), now()
         from unnest($2::text[], $3::text[], $4::int[], $5::jsonb[]) as t(id, hostname, shard, state)`,
      [
        template.workspace_id,
        batch.map((r) => r.id),
        batch.map((r) => r.hostname),
        batch.map((r) => r.shard),
        batch.map((r) => r.state),
      ],
    );
  }
  await pg.query('analyze domains');
}

/**
 * Every shard's watermark (`shard_leases.monitored_until`) `seconds` from now (negative: in the
 * past), with no node running: the node that takes the shards on resumes each domain at its first
 * probe time at or after it. Returns it as PostgreSQL prints it (exact to the microsecond).
 */
async function setWatermarks(pg: Pool, seconds: number): Promise<string> {
  const { rows } = await pg.query<{ at: string }>(
    `update shard_leases set monitored_until = now() + make_interval(secs => $1)
     returning monitored_until::text as at`,
    [seconds],
  );
  if (rows.length !== SHARDS) throw new Error(`Expected ${SHARDS} shard leases, found ${rows.length}`);
  return rows[0].at;
}

/** The edge replica writer's copy of the seeded domains, before the baseline. */
const REPLICA_COPY_MS = 600_000;

/** dist/apps/node as n1, once it holds every shard; with when it served and when it held them all. */
async function startMonitorNode(env: BenchEnv, pg: Pool, dnsAddress: string, extra: Record<string, string>) {
  const node = await startNode(env, dnsAddress, 'n1', extra);
  const servingAt = Date.now();
  await waitForCoverage(pg, ['n1'], 30_000, [node.proc]);
  return { ...node, servingAt, coveredAt: Date.now() };
}

/**
 * Until the node has loaded its shards' domains: it then writes each shard's watermark (the first
 * probe time of its domains, no longer the one set) within 5 s (WATERMARK_SAVE_MS).
 */
async function waitForLoaded(pg: Pool, node: Child, setAt: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ moved }] = (
      await pg.query<{ moved: string }>(
        `select count(*) as moved from shard_leases
          where monitored_until is distinct from $1::timestamptz`,
        [setAt],
      )
    ).rows;
    if (Number(moved) === SHARDS) return;
    if (node.child.exitCode !== null) throw new Error(`The node exited; output:\n${node.output()}`);
    if (Date.now() > deadline) throw new Error(`Only ${moved} of ${SHARDS} watermarks written in ${timeoutMs} ms`);
    await sleep(250);
  }
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
      const kind = q.startsWith('select id, hostname, workspace_id')
        ? 'monitor read of due domains'
        : q.startsWith('update shard_leases l set monitored_until')
          ? 'monitor watermarks'
          : q.startsWith('select state, version from domains')
            ? 'actor activation (snapshot read)'
            : 'other';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    await sleep(100);
  }
  return kinds;
}

interface NodeSample {
  at: number;
  probes: number;
  byOutcome: Record<string, number>;
  stale: number;
  probeSecondsSum: number;
  probeCount: number;
  taken: number;
  nodeCpu: number;
  dnsCpu: number;
  cnameQueries: number;
}

const OUTCOMES = ['correct', 'incorrect', 'not_resolving', 'origin_blocked', 'lookup_failed', 'error'];

/** The node's monitor metrics (monitor_claimed_domains_total, a name kept from the claim, counts the domains taken). */
async function sampleNode(metricsUrl: string, node: Child, dns: BenchDns): Promise<NodeSample> {
  const [text, stats] = await Promise.all([(await fetch(metricsUrl)).text(), dns.stats()]);
  const byOutcome = Object.fromEntries(
    OUTCOMES.map((o) => [o, metricSum(text, 'monitor_probes_total', `outcome="${o}"`)]),
  );
  return {
    at: Date.now(),
    probes: Object.values(byOutcome).reduce((a, b) => a + b, 0),
    byOutcome,
    stale: metricSum(text, 'monitor_probes_total', 'outcome="skipped_stale"'),
    probeSecondsSum: metricSum(text, 'monitor_probe_seconds_sum'),
    probeCount: metricSum(text, 'monitor_probe_seconds_count'),
    taken: metricSum(text, 'monitor_claimed_domains_total'),
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
    const nodeEnv = {
      MONITOR_INTERVAL_SECONDS: String(INTERVAL_S),
      MONITOR_CONCURRENCY: String(CONCURRENCY),
      EDGE_IPV4: edge.ip,
      PROBE_TLS_PORT: edge.port,
    };
    // The api and a node only to create the template domain through the API; both stopped before
    // the seeding, since a node reads the domains of its shards only when it takes them on.
    const service = await startService(env, pg, dns.address, nodeEnv);
    const { apiKey } = await createWorkspace(service.api.url);
    const template = await createDomain(service.api.url, apiKey, `template.${SUFFIX}`);
    await service.api.proc.stop();
    await service.node.proc.stop(30_000);
    const seedStart = Date.now();
    await seed(pg, template.domain.id, hostnames);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    console.log(`  seeded ${DOMAINS} domains in ${seedSeconds.toFixed(1)} s`);

    // Baseline first, with a node that has every domain loaded and nothing due for an hour (every
    // watermark an hour ahead): the same probe (DnsProber over DnsResolver, exactly the node's
    // queries) in a closed loop from this process against the same DNS server.
    const idleMark = await setWatermarks(pg, 3_600);
    const idleStart = Date.now();
    const idle = await startMonitorNode(env, pg, dns.address, nodeEnv);
    await waitForLoaded(pg, idle.proc, idleMark, 60_000);
    const idleLoadedSeconds = (Date.now() - idleStart) / 1000;
    // The node's edge replica writer copies the seeded domains in the background (a node's start
    // does not wait for it): minutes of the node's CPU that would run under the baseline.
    const replicaSeconds = await waitForReplicaCheckpoint(env, await lastEdgeChange(pg), REPLICA_COPY_MS);
    console.log(`  edge replica: the seeded domains copied ${replicaSeconds.toFixed(1)} s after every watermark`);
    console.log(
      `  baseline node: serving ${((idle.servingAt - idleStart) / 1000).toFixed(1)} s, every shard ` +
        `${((idle.coveredAt - idleStart) / 1000).toFixed(1)} s, every watermark written ${idleLoadedSeconds.toFixed(1)} s`,
    );
    const prober = new DnsProber(new DnsResolver({ servers: [dns.address] }), {
      cnameTarget: EDGE_TARGET,
      ipv4: [edge.ip],
    });
    const probe = async () => {
      const result = await prober.probe(hostnames[Math.floor(Math.random() * hostnames.length)]);
      if (result.dns !== 'correct') throw new Error(`raw probe saw ${result.dns}`);
    };
    await closedLoop(CONCURRENCY, BASELINE_WARMUP_MS, probe);
    const idleNodeCpu = cpuSeconds(idle.proc);
    const baseDnsBefore = { cpu: cpuSeconds(dns.proc), stats: await dns.stats(), at: Date.now() };
    const ownCpuBefore = process.cpuUsage();
    const rawRun = await closedLoop(CONCURRENCY, BASELINE_MS, probe);
    const raw = summarize([rawRun]);
    const rawMeanMs = rawRun.latencies.reduce((a, b) => a + b, 0) / Math.max(1, rawRun.latencies.length);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const baseDnsCpu = cpuSeconds(dns.proc) - baseDnsBefore.cpu;
    const baseQueries = (await dns.stats()).queries - baseDnsBefore.stats.queries;
    const baseMs = Date.now() - baseDnsBefore.at;
    // The node's own background (leases, membership, outbox relay, metrics, the watermarks) with
    // every domain in its schedule and nothing due.
    const idleNodeCpuRate = (cpuSeconds(idle.proc) - idleNodeCpu) / (baseMs / 1000);
    // A UDP answer lost on a busy machine costs the resolver a 2 s timeout; a few are tolerated and reported.
    if (raw.errors > raw.ok / 100) throw new Error(`${raw.errors} raw probes failed: ${raw.firstError}`);
    console.log(`  raw resolver: ${formatNumber(raw.perSecond)} probes/s p50 ${raw.p50.toFixed(2)} ms`);
    await idle.proc.stop(30_000);

    // The measured node: every shard's watermark one interval back, so every domain has exactly one
    // slot between it and now: all due at once as the node loads them, more than it probes in the
    // warm-up and the window. The warm-up starts with its first probe.
    const armedAt = Date.now();
    await setWatermarks(pg, -INTERVAL_S);
    const node = await startMonitorNode(env, pg, dns.address, nodeEnv);
    const metricsUrl = `${node.url}/metrics`;
    while ((await sampleNode(metricsUrl, node.proc, dns)).probes === 0) {
      if (Date.now() - armedAt > 30_000) throw new Error('The monitor did not start on the due domains within 30 s');
      await sleep(100);
    }
    const foundAfterMs = Date.now() - armedAt;
    console.log(
      `  measured node: serving ${((node.servingAt - armedAt) / 1000).toFixed(1)} s, every shard ` +
        `${((node.coveredAt - armedAt) / 1000).toFixed(1)} s, first probe ${(foundAfterMs / 1000).toFixed(1)} s`,
    );
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
    // Each domain is due once (a probed one is next due in an interval): what the node has not
    // probed since it started is still due, the template domain (on its back-off) aside.
    const due = DOMAINS + 1 - after.probes;
    const [{ written }] = (
      await pg.query<{ written: string }>(
        `select count(*) as written from domains where id like 'dom_benchmon%' and version > 1`,
      )
    ).rows.map((r) => ({ written: Number(r.written) }));
    if (due < HELD_AT_MOST) {
      throw new Error('The seeded domains ran out during the window: seed more (BENCH_MONITOR_DOMAINS)');
    }
    console.log(`  window measured: ${probes} probes; timing the monitor's statements`);
    // What the monitor's statements cost the database, timed with the node stopped. A long grace: a
    // profiled node (BENCH_NODE_ARGS=--cpu-prof) writes its profile as it exits.
    await node.proc.stop(30_000);
    const exitedAt = Date.now();
    // With BENCH_NODE_ARGS=--cpu-prof: where the node's CPU went during the window, per probe.
    const dir = profileDir();
    const profile = dir ? profileStages(dir, exitedAt - before.at, exitedAt - after.at) : undefined;
    const allShards = Array.from({ length: SHARDS }, (_, i) => i);
    const load = await medianOf(3, () => timeShardLoad(pg, allShards));
    if (probes === 0) throw new Error(`The node probed nothing; output:\n${node.proc.output()}`);
    const failed = outcomes.filter(([o]) => o !== 'correct');
    const probeCpuMs = ((after.nodeCpu - before.nodeCpu - (idleNodeCpuRate * ms) / 1000) * 1000) / probes;
    console.log(
      `  node: ${formatNumber(perSecond)} probes/s (${probes} in ${ms} ms; ${outcomes.map(([o, n]) => `${o} ${n}`).join(', ')}), ` +
        `mean probe ${meanProbeMs.toFixed(1)} ms, node CPU ${percent(after.nodeCpu - before.nodeCpu, ms)}, ` +
        `DNS server CPU ${percent(after.dnsCpu - before.dnsCpu, ms)}, PostgreSQL CPU ${percent(dbCpu, ms)}`,
    );

    return {
      method:
        `One dist/apps/node process (owning all 4096 shards, MONITOR_INTERVAL_SECONDS=${INTERVAL_S}, ` +
        `MONITOR_CONCURRENCY=${CONCURRENCY}) resolving through test/support's loopback DNS server in a process of its ` +
        `own (authoritative, UDP; Node and dns-packet), which holds a CNAME to the edge target for each of ` +
        `${DOMAINS.toLocaleString('en-US')} hostnames. One domain is created through the API (dist/apps/api and a ` +
        `node, both stopped afterwards); ${DOMAINS.toLocaleString('en-US')} copies of its row (id, hostname, phase ` +
        `replaced; shard from shardOf) are inserted into \`domains\` as verified with a certificate valid 60 days, ` +
        `with no node running: the monitor's schedule is in the node's memory, loaded from \`domains\` per shard ` +
        `when the node takes the shard on, resuming from the shard's watermark (shard_leases.monitored_until). ` +
        `For the baseline a node runs with every watermark an hour ahead (all domains loaded, nothing due), measured once its edge replica writer has copied the seeded domains (a start does not wait for that copy; it runs in the background). ` +
        `Then, with no node running, every watermark is set one interval back and the measured node starts: ` +
        `each domain has exactly one phase slot between its shard's watermark and now, so all are due at once ` +
        `as the node loads them (none stale, which is past the interval + 30 s), a backlog larger than the node ` +
        `probes in the warm-up and the window. What a probe needs (hostname, origin, state machine) is kept ` +
        `beside each schedule entry, loaded with the shard, so nothing is read per probe (the by-id read ` +
        `timed below is only the fallback for an entry without one); the node writes the shards' ` +
        `watermarks every 5 s. A probe is then a ` +
        `CNAME query (right: the edge target) that changes nothing, so the actor is not woken and nothing is ` +
        `written; one probe in 288 (SERVED_CHECK_INTERVAL_SECONDS=86400, the default, over a 300 s interval) also reads the ` +
        `certificate the hostname serves over TLS, from a local TLS server standing in for the edge ` +
        `(bench/edge/static-tls.main, a valid wildcard certificate; the edge target's A record points at it). Probes completed per second: the node's ` +
        `monitor_probes_total over ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up, counted from the ` +
        `monitor's first probe of the backlog (cross-checked with the ` +
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
                `queries in bursts: the monitor takes one batch of at most MONITOR_CONCURRENCY per 1 s tick and ` +
                `takes nothing more until the next tick, whatever its CPU, the database and the resolver allow`,
            }
          : {}),
        'Seeded domains (verified, due)': DOMAINS,
        'Seeding (SQL insert), s': round(seedSeconds, 1),
        'Baseline node (the first start after the seeding): serving / every shard held / every watermark written (all loaded), s from its start': `${round(
          (idle.servingAt - idleStart) / 1000,
          1,
        )} / ${round((idle.coveredAt - idleStart) / 1000, 1)} / ${round(idleLoadedSeconds, 1)}`,
        'Before the baseline: the edge replica writer copying the seeded domains, s after every watermark was written':
          round(replicaSeconds, 1),
        'Measured node: serving / every shard held / first probe (after loading its shards), s from the watermarks set': `${round(
          (node.servingAt - armedAt) / 1000,
          1,
        )} / ${round((node.coveredAt - armedAt) / 1000, 1)} / ${round(foundAfterMs / 1000, 1)}`,
        'Probes in the window (monitor_probes_total)': probes,
        'CNAME queries the DNS server saw in the window': after.cnameQueries - before.cnameQueries,
        'Outcomes in the window': outcomes.map(([o, n]) => `${o} ${n}`).join(', '),
        'Probes that were not correct': failed.length ? failed.map(([o, n]) => `${o} ${n}`).join(', ') : 0,
        'Skipped as stale by the end (monitor_probes_total{outcome="skipped_stale"})': after.stale,
        'Seeded domains written (version > 1) by the end': written,
        'Domains still due at the end (seeded and template, less the probes since the node started)': due,
        'Probes in flight / taken domains waiting, mean of the samples every 500 ms (gauges)': `${round(
          held.meanInFlight,
        )} / ${round(held.meanWaiting)} (${held.samples} samples, ${round(held.queueEmpty * 100)}% with none waiting)`,
        'Domains taken for a probe in the window (monitor_claimed_domains_total)': after.taken - before.taken,
        'Node CPU during the window': percent(after.nodeCpu - before.nodeCpu, ms),
        'DNS server CPU during the window': percent(after.dnsCpu - before.dnsCpu, ms),
        'PostgreSQL CPU (this database) during the window': percent(dbCpu, ms),
        'PostgreSQL CPU per probe in the window (ms)': round((dbCpu * 1000) / probes, 4),
        '100 ms slots of the window in which the DNS server saw any query': spread
          ? `${spread.slotsWithQueries} of ${spread.slots}`
          : 'n/a',
        [`Loading every shard's domains as a node taking them on does (shardDomains, ${
          SHARDS / MONITOR_LOAD_CHUNK
        } statements of ${MONITOR_LOAD_CHUNK} shards, one connection, node stopped; median of 3)`]: `${(
          load.ms / 1000
        ).toFixed(2)} s for ${load.rows.toLocaleString('en-US')} domains`,
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
        'Ceilings: one core / node CPU per probe; MONITOR_CONCURRENCY / mean probe time': `${formatNumber(1000 / probeCpuMs)}/s; ${formatNumber((CONCURRENCY * 1000) / meanProbeMs)}/s`,
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
  timeoutMs: 420_000,
  run,
};

import { NatsBus } from '@app/bus';
import { DNS_CHALLENGE_CHANGED_SUBJECT } from '@app/kernel';
import { createHash } from 'node:crypto';
import type { DnsZones } from '../../test/support/dns-server';
import { startControlledDns } from '../certificates/stack';
import { pool } from '../lib/cluster';
import { built } from '../lib/paths';
import { startScript, stopAll } from '../lib/processes';
import { formatNumber, percentile, round } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { cpuSeconds, freePort, waitForPort } from '../edge/edge-fixtures';
import { CHALLENGE_DNS_AREA } from './area';
import { UdpLoadRun, udpLoad } from './udp-load';

const ZONE = 'acme.bench-edge.net';
const NAMES = 1_000;
const PER_SECOND = 2_000;
/** Four rounds of each, alternating, so a swing in the machine's load falls on both: 20 s on each server. */
const ROUND_MS = 5_000;
const ROUNDS = 4;
/** 20 source addresses at 100 queries/s each: under the listener's default 200 per address. */
const SOURCES = Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 1}`);
const ENCRYPTION_KEY = 'bench-encryption-key-0123456789abcdef0123';

const nameOf = (i: number) => `c${i}.${ZONE}`;
/** A DNS-01 value has the shape of base64url(SHA-256(key authorization)): 43 characters. */
const valueOf = (name: string) => createHash('sha256').update(name).digest('base64url');

async function startEdgeWithZone(env: BenchEnv): Promise<{ port: number; metricsUrl: string; pid?: number }> {
  const port = await freePort();
  const proc = startScript(
    'edge',
    built('apps/edge/src/main'),
    {
      DATABASE_URL: env.databaseUrl,
      NATS_URL: env.natsUrl,
      NATS_SUBJECT_PREFIX: env.prefix,
      ENCRYPTION_KEY,
      PORT: '0',
      EDGE_HTTP_PORT: String(await freePort()),
      EDGE_HTTPS_PORT: String(await freePort()),
      ACME_CHALLENGE_ZONE: ZONE,
      ACME_CHALLENGE_DNS_PORT: String(port),
    },
    process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
  );
  const url = await proc.waitFor(/health and metrics on (http:\/\/127\.0\.0\.1:\d+)/, 45_000);
  await waitForPort(port, 10_000, 'challenge DNS listener', proc);
  return { port, metricsUrl: `${url}/metrics`, pid: proc.child.pid };
}

function summary(runs: UdpLoadRun[]) {
  const latencies = runs.flatMap((r) => r.latencies);
  const sent = runs.reduce((n, r) => n + r.sent, 0);
  const answered = runs.reduce((n, r) => n + r.answered, 0);
  const wrong = runs.reduce((n, r) => n + r.wrong, 0);
  return {
    sent,
    answered,
    wrong,
    lost: sent - answered - wrong,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
  };
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  let bus: NatsBus | undefined;
  try {
    const names = Array.from({ length: NAMES }, (_, i) => nameOf(i));
    const zones: DnsZones = Object.fromEntries(
      names.map((name) => [name, [{ type: 'TXT', ttl: 10, data: valueOf(name) }]]),
    );
    const baseline = await startControlledDns(zones);
    const baselinePort = Number(baseline.address.split(':')[1]);
    // The edge migrates its fresh database at start; the challenges are written after, as a node would.
    const edge = await startEdgeWithZone(env);
    await pg.query(
      `insert into acme_dns_challenges (token, name, value, expires_at)
       select 'bench-' || (i - 1), 'c' || (i - 1) || '.${ZONE}', v, now() + interval '1 hour'
       from unnest($1::text[]) with ordinality as t(v, i)`,
      [names.map(valueOf)],
    );
    bus = await NatsBus.connect([env.natsUrl], 'bench-challenge-dns', env.prefix);
    bus.publish(DNS_CHALLENGE_CHANGED_SUBJECT, { name: names[0] });

    const load = (port: number, durationMs: number) =>
      udpLoad({ port, perSecond: PER_SECOND, durationMs, sources: SOURCES, names, expected: valueOf });
    // Warm-up of both (JIT, the copy reloaded after the message): not measured.
    await load(edge.port, 2_000);
    await load(baselinePort, 2_000);
    const edgeRuns: UdpLoadRun[] = [];
    const baselineRuns: UdpLoadRun[] = [];
    const cpu = { edge: 0, baseline: 0 };
    const measure = async (side: 'edge' | 'baseline', port: number, pid: number | undefined, into: UdpLoadRun[]) => {
      const before = cpuSeconds(pid);
      into.push(await load(port, ROUND_MS));
      cpu[side] += cpuSeconds(pid) - before;
    };
    for (let i = 0; i < ROUNDS; i++) {
      await measure('edge', edge.port, edge.pid, edgeRuns);
      await measure('baseline', baselinePort, baseline.proc.child.pid, baselineRuns);
    }
    const e = summary(edgeRuns);
    const b = summary(baselineRuns);
    const metrics = await (await fetch(edge.metricsUrl)).text();
    const rateLimited =
      /challenge_dns_queries_total\{transport="udp",outcome="rate_limited"\} (\d+)/.exec(metrics)?.[1] ?? '0';
    console.log(
      `  listener: p50 ${e.p50.toFixed(3)} ms, p99 ${e.p99.toFixed(3)} ms, answered ${e.answered}/${e.sent}; ` +
        `in-memory server: p50 ${b.p50.toFixed(3)} ms, p99 ${b.p99.toFixed(3)} ms, answered ${b.answered}/${b.sent}`,
    );
    return {
      method:
        `${formatNumber(NAMES)} live DNS-01 challenges in acme_dns_challenges (one 43-character value each), answered ` +
        `by the challenge zone's listener in the edge process (dist/apps/edge, ACME_CHALLENGE_ZONE set, default ` +
        `rate limit of 200 queries/s per address). The benchmark process sends an open-loop load of ` +
        `${formatNumber(PER_SECOND)} TXT queries/s (EDNS, a random live name each) over UDP from ${SOURCES.length} ` +
        `loopback source addresses (100/s each), in batches every 5 ms whatever the answers do, and times each from ` +
        `send to response; a response counts as answered when it holds the name's value, a query without a response ` +
        `1 s after the round as lost. Baseline: test/support's in-memory authoritative DNS server (dns-packet, the ` +
        `same names and values, its own process) under the same load in the same run; ${ROUNDS} alternating rounds ` +
        `of ${ROUND_MS / 1000} s each after a 2 s warm-up of both.`,
      figures: [
        figure({
          label: `Challenge answer p99 at ${formatNumber(PER_SECOND)} queries/s`,
          value: round(e.p99, 3),
          unit: 'ms',
          baseline: { label: "test/support's in-memory DNS server p99", value: round(b.p99, 3) },
          goal: { of: 'value', atMost: 5 },
        }),
        figure({
          label: 'Challenge answer p50',
          value: round(e.p50, 3),
          unit: 'ms',
          baseline: { label: 'in-memory DNS server p50', value: round(b.p50, 3) },
        }),
        figure({
          label: 'Server CPU per query (user + system)',
          value: round((cpu.edge / e.sent) * 1e6),
          unit: 'µs',
          baseline: { label: 'in-memory DNS server', value: round((cpu.baseline / b.sent) * 1e6) },
        }),
        figure({
          label: 'Queries answered with the value',
          value: e.answered,
          unit: '',
          baseline: { label: 'in-memory DNS server', value: b.answered },
          goal: { of: 'value', atLeast: e.sent },
        }),
      ],
      details: {
        'Queries sent to the listener': e.sent,
        'Listener: answered / wrong answer / lost': `${e.answered} / ${e.wrong} / ${e.lost}`,
        'In-memory server: answered / wrong answer / lost': `${b.answered} / ${b.wrong} / ${b.lost}`,
        'Listener max latency (ms)': round(e.max, 3),
        'In-memory server max latency (ms)': round(b.max, 3),
        'Queries the listener rate-limited': Number(rateLimited),
        'Listener p99 per round (ms)': edgeRuns.map((r) => percentile(r.latencies, 99).toFixed(2)).join(', '),
        'In-memory server p99 per round (ms)': baselineRuns
          .map((r) => percentile(r.latencies, 99).toFixed(2))
          .join(', '),
      },
    };
  } finally {
    await bus?.close();
    await stopAll();
    await pg.end();
  }
}

export const challengeDnsAnswerLatencyBench: Benchmark = {
  name: 'challenge-dns.answer-latency',
  area: CHALLENGE_DNS_AREA,
  order: 1,
  title: 'Challenge answer latency from the DNS listener at 2,000 queries/s',
  timeoutMs: 180_000,
  run,
};

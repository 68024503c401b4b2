import type { Request } from 'autocannon';
import { pool } from '../lib/cluster';
import { forEachConcurrently } from '../lib/load';
import { stopAll } from '../lib/processes';
import { round } from '../lib/stats';
import { latencyFigures } from '../lib/latency-figures';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { DOMAINS_AREA } from './area';
import {
  CONNECTIONS,
  TargetLoad,
  alternate,
  assertClean,
  cannon,
  line,
  startBareApi,
  summarizeHttp,
} from './http-load';
import {
  createDomain,
  createWorkspace,
  fixtures,
  json,
  percent,
  startDns,
  fastPathAnswers,
  startService,
  waitForProbes,
} from './service';

/** Domains created before the GETs (BENCH_GET_DOMAINS; fewer on a machine too busy to create 1,000 in time). */
const SEEDED = Number(process.env.BENCH_GET_DOMAINS ?? 1_000);
const ROUND_S = 6;
const ROUNDS = 2;
const WARMUP_S = 2;

const FAST_PATH = 'domains_read_fast_path_answers';

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  try {
    const dns = await startDns(fixtures().domainZones());
    const { api, node } = await startService(env, pg, dns.address);
    const { apiKey } = await createWorkspace(api.url);
    const ids: string[] = [];
    const seedStart = Date.now();
    await forEachConcurrently(
      Array.from({ length: SEEDED }, (_, i) => i),
      16,
      async (i) => ids.push((await createDomain(api.url, apiKey, `g${i}.bench-customer.com`)).domain.id),
    );
    const seedSeconds = (Date.now() - seedStart) / 1000;
    // The monitor probes each new domain 10 s after its creation (NXDOMAIN: one write each): let that pass.
    await waitForProbes(node.url, SEEDED, 30_000);
    const sample = await json(`${api.url}/v1/domains/${ids[0]}`, 'GET', apiKey);
    if (sample.status !== 200) throw new Error(`GET /v1/domains/{id} answered ${sample.status}`);
    const bodyBytes = Buffer.byteLength(JSON.stringify(sample.body));
    const bare = await startBareApi({ get: sample.body });

    const requests: Request[] = [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${apiKey}` },
        setupRequest: (req) => ({ ...req, path: `/v1/domains/${ids[Math.floor(Math.random() * ids.length)]}` }),
      },
    ];
    const targets = {
      service: { url: api.url, procs: [api.proc, node.proc] },
      bare: { url: bare.url, procs: [bare.proc] },
    };
    for (const { url } of Object.values(targets)) await cannon(url, WARMUP_S, requests);
    const fastBefore = await fastPathAnswers(api.url, FAST_PATH);
    const load = await alternate(targets, ROUNDS, ROUND_S, requests, pg);
    const fastAnswers = (await fastPathAnswers(api.url, FAST_PATH)) - fastBefore;
    const s = summarizeHttp(load.service.runs);
    const b = summarizeHttp(load.bare.runs);
    assertClean('GET /v1/domains/{id}', s);
    assertClean('bare handler', b);
    console.log(`  ${line('service', s)}; ${line('bare', b)}`);
    const cpu = (t: TargetLoad, seconds: number) => percent(seconds, t.ms);

    return {
      method:
        `The real service as separate processes: dist/apps/api and one dist/apps/node (owning every shard) on the ` +
        `benchmark's database and NATS prefix, resolving through test/support's loopback DNS server (own process, ` +
        `fixture zones). RATE_LIMITS=off: the SPEC's per-key limits would otherwise throttle a benchmark to a few ` +
        `requests per second; LOG_LEVEL=warn (no per-request log lines). A workspace with pm_card_visa through the ` +
        `admin API, then ${SEEDED.toLocaleString('en-US')} domains created with POST /v1/domains (and their first ` +
        `monitor probes, 10 s later, awaited). autocannon ` +
        `(${CONNECTIONS} keep-alive connections, one request in flight each, from the benchmark process) sends ` +
        `GET /v1/domains/{id} with a random seeded id and the API key. Baseline: a bare NestJS app on the same ` +
        `Fastify adapter in its own process, one controller answering the same path with a fixed JSON object ` +
        `(the service's own answer, ${bodyBytes} bytes): no auth, no database. ${ROUNDS} alternating rounds of ` +
        `${ROUND_S} s each after ${WARMUP_S} s of warm-up of each; latency percentiles over every answer of the ` +
        `measured rounds (autocannon's per-response times). Load generator, api, node, PostgreSQL and NATS share ` +
        `the machine's cores.`,
      figures: [
        figure({
          label: `GET /v1/domains/{id} requests per second (${CONNECTIONS} connections)`,
          value: round(s.perSecond),
          unit: '/s',
          baseline: { label: 'bare NestJS-on-Fastify handler', value: round(b.perSecond) },
          goal: { of: 'ratio', atLeast: 0.5 },
        }),
        ...latencyFigures(s, b, 'GET {p} latency', 'bare handler {p}'),
      ],
      details: {
        'Domains seeded through the API': SEEDED,
        'Seeding rate (POST, 16 in flight), per second': round(SEEDED / seedSeconds),
        'Response body (bytes)': bodyBytes,
        'Requests measured (service)': s.ok,
        'Requests measured (bare)': b.ok,
        'Non-2xx answers / errors (service)': `${s.non2xx} / ${s.errors}`,
        'Measured seconds (each side)': round(s.seconds, 1),
        'CPU during the service rounds (one core = 100%): api / node / PostgreSQL / autocannon':
          `${cpu(load.service, load.service.cpu[0])} / ${cpu(load.service, load.service.cpu[1])} / ` +
          `${cpu(load.service, load.service.databaseCpu)} / ${cpu(load.service, load.service.loadCpu)}`,
        'CPU during the bare rounds: bare app / autocannon': `${cpu(load.bare, load.bare.cpu[0])} / ${cpu(
          load.bare,
          load.bare.loadCpu,
        )}`,
        'Answered by the fast path (DomainReadFastPath), share of measured GETs': `${round(
          (100 * fastAnswers) / (s.ok + s.non2xx),
          1,
        )}%`,
        'API CPU per request (ms)': round((load.service.cpu[0] * 1000) / s.ok, 3),
        'Bare app CPU per request (ms)': round((load.bare.cpu[0] * 1000) / b.ok, 3),
      },
    };
  } finally {
    await stopAll();
    await pg.end();
  }
}

export const domainsGetBench: Benchmark = {
  name: 'domains.get',
  area: DOMAINS_AREA,
  order: 1,
  title: 'GET /v1/domains/{id} throughput and latency, against a bare NestJS-on-Fastify handler',
  timeoutMs: 300_000,
  run,
};

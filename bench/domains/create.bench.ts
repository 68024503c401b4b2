import type { Request } from 'autocannon';
import { pool } from '../lib/cluster';
import { stopAll } from '../lib/processes';
import { round } from '../lib/stats';
import { latencyFigures } from '../lib/latency-figures';
import { localNatsPid } from '../lib/listener-pid';
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
import { rowsPerCreation } from './rows-written';
import {
  createDomain,
  createWorkspace,
  fastPathAnswers,
  fixtures,
  metricSum,
  percent,
  startDns,
  startService,
} from './service';

const FAST_PATH = 'domains_create_fast_path_answers';

const ROUND_S = 6;
const ROUNDS = 2;
const WARMUP_S = 2;
/** Creations whose rows are counted, first probes included. */
const ROW_SAMPLE = 200;

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  try {
    const { ORIGIN_URL, domainZones } = fixtures();
    const dns = await startDns(domainZones());
    const { api, node } = await startService(env, pg, dns.address);
    const { apiKey } = await createWorkspace(api.url);
    const sample = await createDomain(api.url, apiKey, 'sample.bench-customer.com');
    // Before any load: the rows a creation and its first probe write (nothing else writes yet).
    const rows = await rowsPerCreation(pg, { api: api.url, node: node.url }, apiKey, ROW_SAMPLE);
    const bodyBytes = Buffer.byteLength(JSON.stringify(sample));
    const bare = await startBareApi({ post: sample });

    // Every request a hostname of its own (unknown to the DNS server: NXDOMAIN, which creation allows).
    let next = 0;
    const requests: Request[] = [
      {
        method: 'POST',
        path: '/v1/domains',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ hostname: `b${next++}.bench-customer.com`, originUrl: ORIGIN_URL }),
        }),
      },
    ];
    const targets = {
      service: { url: api.url, procs: [api.proc, node.proc] },
      bare: { url: bare.url, procs: [bare.proc] },
    };
    for (const { url } of Object.values(targets)) await cannon(url, WARMUP_S, requests);
    const fastBefore = await fastPathAnswers(api.url, FAST_PATH);
    const commandsBefore = await domainCommandTime(node.url);
    const load = await alternate(targets, ROUNDS, ROUND_S, requests, pg, localNatsPid(env.natsUrl));
    const fastAnswers = (await fastPathAnswers(api.url, FAST_PATH)) - fastBefore;
    const commandsAfter = await domainCommandTime(node.url);
    const nodeCommandMs =
      ((commandsAfter.seconds - commandsBefore.seconds) * 1000) / (commandsAfter.count - commandsBefore.count);
    const s = summarizeHttp(load.service.runs);
    const b = summarizeHttp(load.bare.runs);
    assertClean('POST /v1/domains', s);
    assertClean('bare handler', b);
    console.log(`  ${line('service', s)}; ${line('bare', b)}`);
    const cpu = (t: TargetLoad, seconds: number) => percent(seconds, t.ms);
    const live = await pg.query<{ n: string }>('select count(*) as n from domains where deleted_at is null');

    return {
      method:
        `The same service processes as domains.get (dist/apps/api and one dist/apps/node on the benchmark's database ` +
        `and NATS prefix, RATE_LIMITS=off so the SPEC's 60 creations per minute per key do not throttle the ` +
        `benchmark, LOG_LEVEL=warn, loopback DNS server process with the fixture zones). autocannon ` +
        `(${CONNECTIONS} connections, one request in flight each) sends POST /v1/domains with a unique hostname per ` +
        `request (b<n>.bench-customer.com: NXDOMAIN, which creation allows) and the fixture origin ` +
        `(origin.saas-test.net, a public address). Each creation runs the hostname rules, the workspace's card ` +
        `check, the origin's SSRF preflight and the CAA climb in the api (the card, the origin's verdict and the ` +
        `parent's CAA answer are reused for 30 s; the new name's CNAME question answers NXDOMAIN, so it is not ` +
        `asked for addresses or CAA), then the create command over NATS ` +
        `to the domain's actor, which checks the hostname is free and commits the snapshot and domain.created ` +
        `before the 201. The node's monitor probes the new domains 10 s after creation (background work during ` +
        `later rounds). Rows: before any load, ${ROW_SAMPLE} creations (8 at a time) and their first probes, counted ` +
        `as rows inserted and updated per table in PostgreSQL's statistics (pg_stat_user_tables) between before the ` +
        `first creation and after the node's monitor_probes_total grew by ${ROW_SAMPLE}; the sum is the figure, ` +
        `the tables are in the details. Baseline: the bare NestJS-on-Fastify app answering 201 with the service's own answer ` +
        `(${bodyBytes} bytes) after parsing the same JSON body. ${ROUNDS} alternating rounds of ${ROUND_S} s after ` +
        `${WARMUP_S} s of warm-up of each; latency percentiles over every answer of the measured rounds ` +
        `(autocannon's per-response times).`,
      figures: [
        figure({
          label: `POST /v1/domains requests per second (${CONNECTIONS} connections)`,
          value: round(s.perSecond),
          unit: '/s',
          baseline: { label: 'bare NestJS-on-Fastify handler', value: round(b.perSecond) },
          // The goal for one api and one node on the 2-core machine (see the notes for the floor).
          goal: { of: 'value', atLeast: 2_000 },
        }),
        figure({
          label: 'Rows written per creation, its first monitor probe included (inserted + updated)',
          value: round(rows.inserted + rows.updated, 2),
          unit: 'rows',
          goal: { of: 'value', atMost: 3 },
        }),
        ...latencyFigures(s, b, 'POST {p} latency', 'bare handler {p}'),
      ],
      details: {
        'Domains created while measured (201)': s.ok,
        'Live domains at the end (warm-up included)': Number(live.rows[0].n),
        [`Rows per creation, first probe included, by table (${ROW_SAMPLE} creations before the load)`]: rows.byTable,
        'Requests measured (bare)': b.ok,
        'Non-2xx answers / errors (service)': `${s.non2xx} / ${s.errors}`,
        // The gauge also counts the requests in flight when a round ends, which autocannon no longer counts.
        'Creations answered before the Nest pipeline (domains_create_fast_path_answers growth) / answers measured': `${fastAnswers} / ${
          s.ok + s.non2xx
        }`,
        'Measured seconds (each side)': round(s.seconds, 1),
        // Of a creation's latency, the part in the node: from the command's arrival to its reply (group commit included).
        "Mean time in the node per domain command during the service rounds (actors_command_seconds{kind='domain'}), ms / POST p50, ms": `${round(
          nodeCommandMs,
          2,
        )} / ${round(s.p50, 2)}`,
        'CPU during the service rounds (one core = 100%): api / node / PostgreSQL / autocannon':
          `${cpu(load.service, load.service.cpu[0])} / ${cpu(load.service, load.service.cpu[1])} / ` +
          `${cpu(load.service, load.service.databaseCpu)} / ${cpu(load.service, load.service.loadCpu)}`,
        'CPU during the bare rounds: bare app / autocannon': `${cpu(load.bare, load.bare.cpu[0])} / ${cpu(
          load.bare,
          load.bare.loadCpu,
        )}`,
        'CPU per created domain (ms): api / node / PostgreSQL':
          `${round((load.service.cpu[0] * 1000) / s.ok, 2)} / ${round((load.service.cpu[1] * 1000) / s.ok, 2)} / ` +
          `${round((load.service.databaseCpu * 1000) / s.ok, 2)}`,
        // Not in the sum above (the measure), but on the same cores: the api's request and the node's
        // reply pass through it, and the domain.created event's JetStream publish is stored and acknowledged.
        'NATS server CPU per created domain (ms; n/a when the server is not on this machine)': Number.isNaN(
          load.service.busCpu,
        )
          ? 'n/a'
          : round((load.service.busCpu * 1000) / s.ok, 2),
      },
    };
  } finally {
    await stopAll();
    await pg.end();
  }
}

/** The node's domain commands so far: their count and the seconds they took (arrival to reply). */
async function domainCommandTime(nodeUrl: string): Promise<{ seconds: number; count: number }> {
  const text = await (await fetch(`${nodeUrl}/metrics`)).text();
  return {
    seconds: metricSum(text, 'actors_command_seconds_sum', 'kind="domain"'),
    count: metricSum(text, 'actors_command_seconds_count', 'kind="domain"'),
  };
}

export const domainsCreateBench: Benchmark = {
  name: 'domains.create',
  area: DOMAINS_AREA,
  order: 2,
  title: 'POST /v1/domains throughput and latency, against a bare NestJS-on-Fastify handler',
  timeoutMs: 300_000,
  run,
};

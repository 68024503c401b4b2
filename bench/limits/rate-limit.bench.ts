import type { Request } from 'autocannon';
import { pool } from '../lib/cluster';
import { forEachConcurrently } from '../lib/load';
import { built } from '../lib/paths';
import { startScript, stopAll } from '../lib/processes';
import { round } from '../lib/stats';
import { latencyFigures } from '../lib/latency-figures';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { CONNECTIONS, TargetLoad, alternate, assertClean, cannon, line, summarizeHttp } from '../domains/http-load';
import { BENCH_ADMIN_TOKEN, createWorkspace, json, percent, serviceEnv } from '../domains/service';
import { LIMITS_AREA } from './area';

/** Keys the requests rotate over, so that no key nears its 60 per minute (the limiter must answer yes). */
const KEYS = Number(process.env.BENCH_RATE_LIMIT_KEYS ?? 3_000);
const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP_S = 2;
const PATH = '/v1/workspace';
/** No DNS is asked on this path; the resolver only needs an address to be configured. */
const NO_DNS = '127.0.0.1:9';

/** dist/apps/api with RATE_LIMITS as given; resolves with its URL once it listens. */
async function startApi(env: BenchEnv, name: string, rateLimits: 'on' | 'off') {
  const proc = startScript(name, built('apps/api/src/main'), serviceEnv(env, NO_DNS, { RATE_LIMITS: rateLimits }), [
    '--enable-source-maps',
  ]);
  const url = await proc.waitFor(/api listening on (http:\/\/127\.0\.0\.1:\d+)/, 45_000);
  return { proc, url };
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  try {
    // One after the other: the first runs the migrations.
    const limited = await startApi(env, 'api-limited', 'on');
    const unlimited = await startApi(env, 'api-unlimited', 'off');
    const { workspaceId, apiKey } = await createWorkspace(unlimited.url);
    const keys = [apiKey];
    await forEachConcurrently(
      Array.from({ length: KEYS - 1 }, (_, i) => i),
      16,
      async () => {
        const res = await json(`${unlimited.url}/admin/workspaces/${workspaceId}/api-keys`, 'POST', BENCH_ADMIN_TOKEN);
        if (res.status !== 201) throw new Error(`issuing an API key answered ${res.status}`);
        keys.push(res.body.apiKey as string);
      },
    );
    const probe = await fetch(`${limited.url}${PATH}`, { headers: { authorization: `Bearer ${apiKey}` } });
    if (probe.status !== 200 || probe.headers.get('x-ratelimit-limit') !== '60') {
      throw new Error(`the limited api answered ${probe.status} without x-ratelimit-limit 60`);
    }
    let next = 0;
    const requests: Request[] = [
      {
        method: 'GET',
        path: PATH,
        setupRequest: (req) => ({ ...req, headers: { authorization: `Bearer ${keys[next++ % keys.length]}` } }),
      },
    ];
    // The same unlimited api, every request with the first key: what the 3,000 keys cost in auth.
    const oneKey: Request[] = [{ method: 'GET', path: PATH, headers: { authorization: `Bearer ${apiKey}` } }];
    const targets = {
      on: { url: limited.url, procs: [limited.proc] },
      off: { url: unlimited.url, procs: [unlimited.proc] },
      oneKey: { url: unlimited.url, procs: [unlimited.proc], requests: oneKey },
    };
    for (const { url } of Object.values(targets)) await cannon(url, WARMUP_S, requests);
    const load = await alternate(targets, ROUNDS, ROUND_S, requests, pg);
    const on = summarizeHttp(load.on.runs);
    const off = summarizeHttp(load.off.runs);
    const one = summarizeHttp(load.oneKey.runs);
    assertClean('rate limits on', on);
    assertClean('rate limits off', off);
    assertClean('one key', one);
    console.log(`  ${line('on', on)}; ${line('off', off)}; ${line('one key', one)}`);
    const cpu = (t: TargetLoad, seconds: number) => percent(seconds, t.ms);
    const perRequest = (seconds: number, n: number) => round((seconds * 1000) / n, 3);

    return {
      method:
        `Two dist/apps/api processes on the benchmark's database and NATS prefix, identical but for RATE_LIMITS ` +
        `(on: SPEC section 8's limits, budget reserved in PostgreSQL by libs/limits' group-committed upsert, a tenth of the limit at a time, and spent in memory; off). One workspace with ` +
        `${KEYS.toLocaleString('en-US')} API keys issued through the admin API; every request takes the next key in ` +
        `turn, so no key reaches its 60 per minute and the limiter always lets the request through (the cost measured ` +
        `is the counting, not cheaper 429s). autocannon (${CONNECTIONS} keep-alive connections, one request in ` +
        `flight each) sends GET ${PATH} (authenticated: key lookup, workspace read). ${ROUNDS} alternating rounds of ` +
        `${ROUND_S} s each after ${WARMUP_S} s of warm-up of each; LOG_LEVEL=warn. A third arm, alternating with ` +
        `the two, sends the same GET to the unlimited api with one key only: the ${KEYS.toLocaleString('en-US')} ` +
        `rotating keys against it measure what keeping many keys authenticated costs. Load generator, both APIs and ` +
        `PostgreSQL share the machine's cores.`,
      figures: [
        figure({
          label: `GET ${PATH} requests per second, rate limits on (${CONNECTIONS} connections)`,
          value: round(on.perSecond),
          unit: '/s',
          baseline: { label: 'rate limits off', value: round(off.perSecond) },
          goal: { of: 'ratio', atLeast: 0.9 },
        }),
        figure({
          label: `GET ${PATH} requests per second, ${KEYS.toLocaleString('en-US')} rotating keys, rate limits off`,
          value: round(off.perSecond),
          unit: '/s',
          baseline: { label: 'the same with one key', value: round(one.perSecond) },
          goal: { of: 'ratio', atLeast: 0.8 },
        }),
        ...latencyFigures(on, off, 'GET {p} latency, rate limits on', 'rate limits off'),
      ],
      details: {
        'API keys rotated': KEYS,
        'Requests measured (on / off / one key)': `${on.ok} / ${off.ok} / ${one.ok}`,
        'API CPU per request, one key (ms)': perRequest(load.oneKey.cpu[0], one.ok),
        'Non-2xx answers / errors (on / off)': `${on.non2xx} / ${on.errors}, ${off.non2xx} / ${off.errors}`,
        'Measured seconds (each side)': round(on.seconds, 1),
        'CPU during the rounds (one core = 100%), on: api / PostgreSQL / autocannon': `${cpu(load.on, load.on.cpu[0])} / ${cpu(
          load.on,
          load.on.databaseCpu,
        )} / ${cpu(load.on, load.on.loadCpu)}`,
        'CPU during the rounds, off: api / PostgreSQL / autocannon': `${cpu(load.off, load.off.cpu[0])} / ${cpu(
          load.off,
          load.off.databaseCpu,
        )} / ${cpu(load.off, load.off.loadCpu)}`,
        'API CPU per request, on / off (ms)': `${perRequest(load.on.cpu[0], on.ok)} / ${perRequest(load.off.cpu[0], off.ok)}`,
        'PostgreSQL CPU per request, on / off (ms)': `${perRequest(load.on.databaseCpu, on.ok)} / ${perRequest(
          load.off.databaseCpu,
          off.ok,
        )}`,
      },
    };
  } finally {
    await stopAll();
    await pg.end();
  }
}

export const limitsRateLimitBench: Benchmark = {
  name: 'limits.rate-limit',
  area: LIMITS_AREA,
  order: 1,
  title: 'Cost of the rate limiter: authenticated GET throughput with RATE_LIMITS on vs off',
  timeoutMs: 420_000,
  run,
};

import { randomUUID } from 'node:crypto';

import { actorClient, counterIds, pool, startCounterNode, waitForCoverage } from '../lib/cluster';
import { LoadRun, closedLoop, forEachConcurrently, summarize } from '../lib/load';
import { built } from '../lib/paths';
import { startScript, stopAll } from '../lib/processes';
import { formatNumber, round } from '../lib/stats';
import { latencyFigures } from '../lib/latency-figures';
import { ACTORS_AREA, BenchEnv, Benchmark, Measured, figure } from '../lib/types';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ACTORS = 1_000;
const ROUND_MS = 6_000;
const ROUNDS = 2;
const WARMUP_MS = 2_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  const { bus, actors } = await actorClient(env);
  try {
    const node = await startCounterNode(env, 'n1');
    const echoSubject = `${env.prefix}.bench.echo`;
    const echo = startScript('echo', built('bench/echo-responder'), {
      NATS_URL: env.natsUrl,
      ECHO_SUBJECT: echoSubject,
    });
    await echo.waitFor(/echo ready/, 15_000);
    await waitForCoverage(pg, ['n1'], 30_000, [node]);

    const ids = counterIds(ACTORS);
    const pick = () => ids[Math.floor(Math.random() * ids.length)];
    // Activate every actor first: what is measured is messaging to resident actors.
    await forEachConcurrently(ids, CONCURRENCY, (id) => actors.ask('counter', id, { op: 'get' }));

    const viaActors = () => actors.ask('counter', pick(), { op: 'get' });
    // The same request body the ActorClient sends, JSON both ways, straight on the NATS connection.
    const viaEcho = async () => {
      const request = { kind: 'counter', id: pick(), command: { op: 'get' }, commandId: randomUUID(), attempt: 1 };
      const msg = await bus.connection.request(echoSubject, encoder.encode(JSON.stringify(request)), {
        timeout: 5_000,
      });
      return JSON.parse(decoder.decode(msg.data)) as unknown;
    };

    await closedLoop(CONCURRENCY, WARMUP_MS, viaEcho);
    await closedLoop(CONCURRENCY, WARMUP_MS, viaActors);
    // Alternate rounds, so drift on a shared machine hits both sides alike.
    const echoRuns: LoadRun[] = [];
    const actorRuns: LoadRun[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      echoRuns.push(await closedLoop(CONCURRENCY, ROUND_MS, viaEcho));
      actorRuns.push(await closedLoop(CONCURRENCY, ROUND_MS, viaActors));
    }
    const a = summarize(actorRuns);
    const e = summarize(echoRuns);
    if (a.errors || e.errors) throw new Error(`Requests failed: ${a.firstError ?? e.firstError}`);
    console.log(
      `  actors: ${formatNumber(a.perSecond)}/s p50 ${a.p50.toFixed(2)} ms p99 ${a.p99.toFixed(2)} ms; ` +
        `raw echo: ${formatNumber(e.perSecond)}/s p50 ${e.p50.toFixed(2)} ms p99 ${e.p99.toFixed(2)} ms`,
    );

    return {
      method:
        `One counter node process (test/fixtures/counter-node.main.ts) owning all 4096 shards; ${ACTORS} counters ` +
        `activated first. The benchmark process keeps ${CONCURRENCY} requests in flight with ActorClient over NatsBus ` +
        `(\`{op: 'get'}\`, which does not persist) to random counters. Baseline: the same JSON request body sent with ` +
        `the same NATS connection's request() to a plain nats subscriber in its own process that answers with the ` +
        `payload (bench/echo-responder.ts), same concurrency. ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s ` +
        `each after ${WARMUP_MS / 1000} s of warm-up of each.`,
      figures: [
        figure({
          label: `Commands per second (get, ${CONCURRENCY} in flight)`,
          value: round(a.perSecond),
          unit: '/s',
          baseline: { label: 'raw NATS request-reply echo', value: round(e.perSecond) },
          goal: { of: 'ratio', atLeast: 0.6 },
        }),
        ...latencyFigures(a, e, '{p} latency', 'raw NATS echo {p}'),
      ],
      details: {
        'In flight': CONCURRENCY,
        'Actors (resident)': ACTORS,
        'Commands measured': a.ok,
        'Echo requests measured': e.ok,
        'Measured seconds (each side)': round(a.seconds, 1),
      },
    };
  } finally {
    await stopAll();
    await bus.close();
    await pg.end();
  }
}

export const throughputBench: Benchmark = {
  name: 'actors.throughput',
  area: ACTORS_AREA,
  order: 1,
  title: 'Command throughput and latency through NATS to in-memory actors',
  timeoutMs: 90_000,
  run,
};

import { newId } from '@app/persistence';
import { MAX_IN_FLIGHT, PER_ENDPOINT, buildEnvelope, envelopeBody } from '@app/webhooks';
import { pool, waitForCoverage } from '../lib/cluster';
import { built } from '../lib/paths';
import { startScript, stopAll } from '../lib/processes';
import { formatNumber, round, sleep, within } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { cpuSeconds, databaseCpu, databaseCpuDelta } from '../domains/service';
import { WEBHOOKS_AREA } from './area';
import { deleteStreams, domainPayload, seedEndpoints, serviceEnv, startApp, startReceivers } from './support';

const ENDPOINTS = 100;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
const WARMUP_EVENTS = 5;
const BASELINE_MS = 10_000;

async function insertEvents(pg: ReturnType<typeof pool>, workspaceId: string, n: number): Promise<void> {
  const payloads = Array.from({ length: n }, (_, i) => JSON.stringify(domainPayload(i)));
  await pg.query(
    `insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id)
     select unnest($1::text[]), $2, 'domain.monitor_updated', unnest($3::jsonb[]), 'domain', 'dom_bench'`,
    [payloads.map(() => newId('evt')), workspaceId, payloads],
  );
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 4);
  let counting = true;
  const arrivals: number[] = [];
  const receivers = await startReceivers(ENDPOINTS, (r) => counting && arrivals.push(r.at));
  try {
    const node = await startApp('node', 'n1', serviceEnv(env, { NODE_ID: 'n1' }));
    await waitForCoverage(pg, ['n1'], 30_000, [node]);
    const workspaceId = await seedEndpoints(pg, receivers.urls);
    const waitFor = async (n: number, ms: number) => {
      const deadline = Date.now() + ms;
      while (arrivals.length < n && Date.now() < deadline) await sleep(20);
      if (arrivals.length < n) throw new Error(`Only ${arrivals.length} of ${n} deliveries arrived in ${ms} ms`);
    };

    await insertEvents(pg, workspaceId, WARMUP_EVENTS);
    await waitFor(WARMUP_EVENTS * ENDPOINTS, 30_000);
    arrivals.length = 0;
    const total = EVENTS * ENDPOINTS;
    const nodeCpuBefore = cpuSeconds(node);
    const dbCpuBefore = await databaseCpu(pg);
    const inserted = Date.now();
    await insertEvents(pg, workspaceId, EVENTS);
    await waitFor(total, 120_000);
    const first = Math.min(...arrivals);
    const last = Math.max(...arrivals);
    const perSecond = (total - 1) / ((last - first) / 1000);
    const recorded = async () =>
      Number((await pg.query("select count(*) as n from webhook_deliveries where status = 'delivered'")).rows[0].n);
    await within(
      (async () => {
        while ((await recorded()) < total + WARMUP_EVENTS * ENDPOINTS) await sleep(50);
      })(),
      30_000,
      'recording every outcome',
    );
    const allRecordedSeconds = (Date.now() - inserted) / 1000;
    // From the events' insert to every outcome written: the whole cost of a delivery, per delivery.
    const perDeliveryMs = (cpu: number) => round((cpu * 1000) / total, 3);
    const nodeCpuMs = perDeliveryMs(cpuSeconds(node) - nodeCpuBefore);
    const dbCpuMs = perDeliveryMs(databaseCpuDelta(dbCpuBefore, await databaseCpu(pg)));
    counting = false;
    console.log(`  node: ${formatNumber(perSecond)} deliveries/s over ${total} deliveries`);
    console.log(`  CPU per delivery: node ${nodeCpuMs} ms, PostgreSQL ${dbCpuMs} ms`);

    const body = envelopeBody(
      buildEnvelope(
        {
          id: newId('evt'),
          workspaceId,
          type: 'domain.monitor_updated',
          data: domainPayload(0),
          createdAt: new Date(),
        },
        0,
      ),
    );
    const loop = startScript('post-loop', built('bench/webhooks/post-loop.main'), {
      POST_URLS: receivers.urls.join(','),
      IN_FLIGHT: String(MAX_IN_FLIGHT),
      BODY_BYTES: String(body.length),
      DURATION_MS: String(BASELINE_MS),
    });
    const [posted, ms] = (await loop.waitFor(/posted (\d+ in \d+) ms/, BASELINE_MS + 20_000)).split(' in ').map(Number);
    const baseline = posted / (ms / 1000);
    console.log(`  raw POST loop: ${formatNumber(baseline)} requests/s`);

    return {
      method:
        `One node process (dist/apps/node) owning every shard, on PostgreSQL and NATS (JetStream publish included). ` +
        `${ENDPOINTS} enabled endpoints of one workspace, each its own HTTP server on loopback in the benchmark ` +
        `process, all subscribed to every event. ${EVENTS} outbox events (${total.toLocaleString('en-US')} deliveries) ` +
        `are written at once, as actors write them; the figure is deliveries received per second from the first ` +
        `arrival to the last (relay, claims, signing, POST, batched outcome writes all on the node; at most ` +
        `${MAX_IN_FLIGHT} in flight, ${PER_ENDPOINT} per endpoint). CPU per delivery: the node process's and the ` +
        `PostgreSQL backends' (the benchmark's own connections left out) from the events' insert until every outcome ` +
        `is written, divided by the deliveries. Baseline: a process that only POSTs a body of ` +
        `the same size (${body.length} B) to the same receivers with a keep-alive agent, ${MAX_IN_FLIGHT} in flight, ` +
        `for ${BASELINE_MS / 1000} s, no signing and no database.`,
      figures: [
        figure({
          label: `Deliveries per second, one node, ${ENDPOINTS} endpoints`,
          value: round(perSecond),
          unit: '/s',
          baseline: { label: 'raw keep-alive POST loop', value: round(baseline) },
          goal: { of: 'value', atLeast: 2_000 },
        }),
      ],
      details: {
        Endpoints: ENDPOINTS,
        'Events written at once': EVENTS,
        'Deliveries measured': total,
        'From the events written to every outcome recorded, s': round(allRecordedSeconds, 1),
        'CPU per delivery, node / PostgreSQL (ms)': `${nodeCpuMs} / ${dbCpuMs}`,
        'Baseline requests': posted,
      },
    };
  } finally {
    await stopAll();
    await receivers.close();
    await pg.end();
    await deleteStreams(env);
  }
}

export const webhookThroughputBench: Benchmark = {
  name: 'webhooks.throughput',
  area: WEBHOOKS_AREA,
  order: 2,
  title: 'Webhook deliveries per second per node (100 endpoints)',
  timeoutMs: 240_000,
  run,
};

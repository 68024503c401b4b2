import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { pool, waitForCoverage } from '../lib/cluster';
import { stopAll } from '../lib/processes';
import { percentile, round, sleep } from '../lib/stats';
import { BenchEnv, Benchmark, Measured, figure } from '../lib/types';
import { WEBHOOKS_AREA } from './area';
import { startDnsStub } from './dns-stub';
import { BENCH_ADMIN_TOKEN, deleteStreams, serviceEnv, startApp, startReceivers } from './support';

const DOMAINS = Number(process.env.BENCH_WEBHOOK_DOMAINS ?? 300);
const WARMUP = 20;
/** Between creates: a steady trickle (about 20 state changes per second), not a saturating load. */
const GAP_MS = 40;
const now = () => performance.timeOrigin + performance.now();

async function call(url: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Sequential keep-alive POSTs of a webhook-sized body to the same receiver: the HTTP part alone. */
async function rawPostLatencies(url: string, n: number, bytes: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true });
  const target = new URL(url);
  const body = Buffer.alloc(bytes, '{');
  const payload = Buffer.from(
    JSON.stringify({ id: 'evt_x', type: 'raw', createdAt: '', data: { pad: body.toString() } }),
  );
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        { method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, agent },
        (res) => res.resume().once('end', () => resolve()),
      );
      req.once('error', reject);
      req.end(payload);
    });
    out.push(performance.now() - t0);
  }
  agent.destroy();
  return out;
}

async function run(env: BenchEnv): Promise<Measured> {
  const pg = pool(env, 2);
  const dns = await startDnsStub();
  const sent = new Map<string, number>();
  const fromChange: number[] = [];
  const fromRequest: number[] = [];
  let measuring = false;
  const receivers = await startReceivers(1, (r) => {
    if (!measuring || r.type !== 'domain.created' || !r.domainId) return;
    fromChange.push(r.at - Date.parse(r.createdAt));
    const t0 = sent.get(r.domainId);
    if (t0 !== undefined) fromRequest.push(r.at - t0);
  });
  try {
    const svc = serviceEnv(env, { DNS_RESOLVERS: dns.address, EDGE_CNAME_TARGET: 'edge.bench-service.net' });
    const [api, node] = await Promise.all([
      startApp('api', 'api', svc),
      startApp('node', 'n1', { ...svc, NODE_ID: 'n1' }),
    ]);
    await waitForCoverage(pg, ['n1'], 30_000, [node]);
    const base = (await api.waitFor(/(http:\/\/127\.0\.0\.1:\d+)/, 1_000)).trim();
    const ws = await call(`${base}/admin/workspaces`, BENCH_ADMIN_TOKEN, {
      name: 'bench',
      paymentMethod: 'pm_card_visa',
    });
    await call(`${base}/v1/webhook-endpoints`, ws.apiKey, { url: receivers.urls[0], events: ['domain.created'] });

    const apiTimes: number[] = [];
    const create = async (i: number) => {
      const t0 = now();
      const created = await call(`${base}/v1/domains`, ws.apiKey, {
        hostname: `shop-${i}.bench-customer.com`,
        originUrl: 'https://93.184.216.34',
      });
      apiTimes.push(now() - t0);
      sent.set(created.domain.id, t0);
    };
    for (let i = 0; i < WARMUP; i++) await create(1_000_000 + i);
    await sleep(500);
    measuring = true;
    apiTimes.length = 0;
    for (let i = 0; i < DOMAINS; i++) {
      await create(i);
      await sleep(GAP_MS);
    }
    const deadline = Date.now() + 30_000;
    while (fromChange.length < DOMAINS && Date.now() < deadline) await sleep(20);
    if (fromChange.length < DOMAINS) {
      throw new Error(
        `Only ${fromChange.length} of ${DOMAINS} webhooks arrived; node output:\n${node.output().slice(-3_000)}`,
      );
    }
    measuring = false;
    const raw = await rawPostLatencies(receivers.urls[0], DOMAINS, 700);
    const p = (xs: number[], q: number) => round(percentile(xs, q), 1);
    console.log(
      `  state change -> receiver: p50 ${p(fromChange, 50)} ms p99 ${p(fromChange, 99)} ms; ` +
        `raw POST p50 ${p(raw, 50)} ms`,
    );

    return {
      method:
        `An api process and one node process (all shards) on PostgreSQL and NATS; one endpoint subscribed to ` +
        `domain.created, a receiver on loopback in the benchmark process. ${DOMAINS} domains are connected through ` +
        `POST /v1/domains, one every ${GAP_MS} ms after the previous answer (a steady trickle, after ${WARMUP} ` +
        `unmeasured). Latency = arrival at the receiver minus the event's createdAt (the database time of the ` +
        `transaction that changed the state and wrote the outbox row, same machine clock): the relay's poll, its ` +
        `transaction (JetStream publish, delivery rows), the claim, signing and the POST. Baseline: sequential ` +
        `keep-alive POSTs of a similar body to the same receiver from the benchmark process (the HTTP part alone).`,
      figures: [
        figure({
          label: 'State change to receiver, p50',
          value: p(fromChange, 50),
          unit: 'ms',
          baseline: { label: 'raw POST p50', value: p(raw, 50) },
          goal: { of: 'value', atMost: 50 },
        }),
        figure({
          label: 'State change to receiver, p99',
          value: p(fromChange, 99),
          unit: 'ms',
          baseline: { label: 'raw POST p99', value: p(raw, 99) },
        }),
      ],
      details: {
        'Domains connected (measured)': DOMAINS,
        'API request sent to receiver, p50 ms': p(fromRequest, 50),
        'API request sent to receiver, p99 ms': p(fromRequest, 99),
        'POST /v1/domains answered, p50 ms': p(apiTimes, 50),
        'Relay wake-up': "woken by its node's outbox commits (safety poll every 500 ms)",
      },
    };
  } finally {
    await stopAll();
    await receivers.close();
    await dns.close();
    await pg.end();
    await deleteStreams(env);
  }
}

export const webhookLatencyBench: Benchmark = {
  name: 'webhooks.latency',
  area: WEBHOOKS_AREA,
  order: 1,
  title: 'Webhook latency from a state change to the receiver',
  timeoutMs: 120_000,
  run,
};

import {
  AcmeProxy,
  CERTIFICATE_EDGE,
  DnsServer,
  ORIGIN_URL,
  PrivatePostgres,
  Prometheus,
  PrometheusAlert,
  REPO_ROOT,
  ServiceProcess,
  StackIssuers,
  clusterProcessEnv,
  domainZones,
  eventually,
  freePort,
  proxiedPebbles,
  purchaseWorkspace,
  sleep,
  startDnsServer,
  startPrivatePostgres,
  startProcess,
  startPrometheus,
  stopAllProcesses,
  uniqueSubjectPrefix,
  waitForUrl,
} from '@test/support';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** Scrapes and rule evaluations every second. */
const INTERVAL_S = 1;
/** Every alert's `for` in the test copy of the rules (the rule unit tests cover the real ones). */
const TEST_FOR_S = 3;
/**
 * CertificateIssuanceFailing's 30-minute window, shortened so it ends within the test, and its
 * minimum of 3 failed orders with it: after a failure the service pauses that CA for at least 30 s,
 * so at most one order fails per window of 20 s.
 */
const TEST_ISSUANCE_WINDOW = '20s';
const TEST_ISSUANCE_MIN_FAILURES = 1;
/**
 * A fault's alert must fire within its `for` plus a scrape interval (and the evaluation that sees
 * it); this much more for a loaded two-core machine, where Prometheus and the processes share CPU.
 */
const SLACK_MS = Number(process.env.ALERT_SLACK_MS ?? 3_000);
const FIRE_WITHIN_MS = (TEST_FOR_S + 2 * INTERVAL_S) * 1000 + SLACK_MS;
jest.setTimeout(300_000);

/**
 * The generated rules with every `for` cut to TEST_FOR_S and the issuance alert's window and
 * minimum count to TEST_ISSUANCE_* (the expressions are otherwise the shipped ones).
 */
function testRules(dir: string): string {
  const rules = parse(readFileSync(join(REPO_ROOT, 'k8s/monitoring/prometheus/custom-domains.rules.yaml'), 'utf8'));
  for (const group of rules.groups as { rules: { alert?: string; expr: string; for?: string }[] }[])
    for (const rule of group.rules) {
      if (!rule.alert) continue;
      rule.for = `${TEST_FOR_S}s`;
      if (rule.alert !== 'CertificateIssuanceFailing') continue;
      rule.expr = rule.expr
        .replace(/\[30m\]/g, `[${TEST_ISSUANCE_WINDOW}]`)
        .replace(/offset 30m/g, `offset ${TEST_ISSUANCE_WINDOW}`)
        .replace('>= 3', `>= ${TEST_ISSUANCE_MIN_FAILURES}`);
      if (/30m|>= 3/.test(rule.expr)) throw new Error(`the test copy missed a window or a count: ${rule.expr}`);
    }
  const file = join(dir, 'rules.yaml');
  writeFileSync(file, stringify(rules));
  return file;
}

/** Every alert state Prometheus reported, polled twice per evaluation. */
class AlertLog {
  readonly seen: { at: number; name: string; severity: string; state: string }[] = [];
  private running = true;
  private loop?: Promise<void>;
  constructor(private readonly prometheus: Prometheus) {}

  start(): void {
    this.loop = (async () => {
      while (this.running) {
        const now = Date.now();
        const alerts = await this.prometheus.alerts().catch(() => [] as PrometheusAlert[]);
        for (const a of alerts)
          this.seen.push({ at: now, name: a.labels.alertname, severity: a.labels.severity, state: a.state });
        await sleep((INTERVAL_S * 1000) / 2);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Names of page alerts pending or firing in [from, to). */
  pages(from: number, to = Date.now()): string[] {
    return [...new Set(this.seen.filter((s) => s.at >= from && s.at < to && s.severity === 'page').map((s) => s.name))];
  }
}

describe('alerts against a real Prometheus scraping api, node and edge', () => {
  const prefix = uniqueSubjectPrefix();
  const dir = mkdtempSync(join(tmpdir(), 'alerts-'));
  const cas: Record<string, AcmeProxy> = {};
  const processes = new Map<string, ServiceProcess>();
  const figures: Record<string, { firedMs: number; resolvedMs: number }> = {};
  let pg: PrivatePostgres;
  let dns: DnsServer;
  let issuers: StackIssuers;
  let prometheus: Prometheus;
  let log: AlertLog;
  let env: Record<string, string>;
  let ports: Record<'api' | 'node' | 'edge' | 'http' | 'https', number>;
  let api: string;

  const startNode = () => {
    const node = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n1', PORT: String(ports.node) });
    processes.set('node', node);
    return waitForUrl(node);
  };
  const firing = async (name: string) =>
    (await prometheus.alerts()).filter((a) => a.labels.alertname === name && a.state === 'firing');
  const shardsOwned = async () => Number((await prometheus.query('sum(actors_shards_owned)'))[0]?.value[1] ?? 0);

  /** Fires within FIRE_WITHIN_MS of `since`; then, once `end` has undone the fault, resolves. */
  async function firesAndResolves(
    name: string,
    since: number,
    end: () => Promise<void>,
    fired: (alerts: PrometheusAlert[]) => boolean = (alerts) => alerts.length > 0,
  ) {
    let firedMs: number;
    try {
      await eventually(() => firing(name), fired, {
        timeoutMs: FIRE_WITHIN_MS + 2_000, // the assertion below is the bound; this only stops the wait
        everyMs: 100,
        what: `${name} firing`,
      });
      firedMs = Date.now() - since;
    } finally {
      await end(); // also when it never fired: the next fault starts from a healthy cluster
    }
    const endedAt = Date.now();
    await eventually(
      () => firing(name),
      (alerts) => alerts.length === 0,
      {
        timeoutMs: 60_000,
        everyMs: 250,
        what: `${name} resolved`,
      },
    );
    figures[name] = { firedMs, resolvedMs: Date.now() - endedAt };
    expect(firedMs).toBeLessThanOrEqual(FIRE_WITHIN_MS);
  }

  /**
   * No page alert pending or firing for `ms` (the run of a quiet cluster). After a fault it starts
   * once Prometheus itself shows no page: what the test reads directly (shard leases in PostgreSQL)
   * recovers a scrape and an evaluation before the alerts do.
   */
  async function quietFor(ms: number) {
    await eventually(
      async () =>
        (await prometheus.alerts()).filter((a) => a.labels.severity === 'page').map((a) => a.labels.alertname),
      (pages) => pages.length === 0,
      { timeoutMs: 60_000, everyMs: 250, what: 'no page alert pending or firing' },
    );
    const from = Date.now();
    await sleep(ms); // an absence to prove: longer than TEST_FOR_S plus two intervals
    expect(log.pages(from)).toEqual([]);
  }

  beforeAll(async () => {
    ports = {
      api: await freePort(),
      node: await freePort(),
      edge: await freePort(),
      http: await freePort(),
      https: await freePort(),
    };
    [pg, dns] = await Promise.all([
      startPrivatePostgres(),
      startDnsServer({ ...domainZones(), [CERTIFICATE_EDGE]: [{ type: 'A', data: '127.0.0.1' }] }),
    ]);
    issuers = await proxiedPebbles(
      [{ name: 'letsencrypt', caaIdentities: ['letsencrypt.org'] }],
      cas,
    )({
      dnsServer: dns.address,
      httpPort: ports.http,
    });
    env = {
      ...clusterProcessEnv(pg.url, prefix),
      ...issuers.env,
      DNS_RESOLVERS: dns.address,
      EDGE_CNAME_TARGET: CERTIFICATE_EDGE,
      EDGE_IPV4: '127.0.0.1',
      EDGE_HTTP_PORT: String(ports.http),
      EDGE_HTTPS_PORT: String(ports.https),
      // Longer than any fault here: the monitor-lag objective stays met throughout.
      MONITOR_INTERVAL_SECONDS: '60',
      RATE_LIMITS: 'off',
    };
    const apiProcess = startProcess('dist/apps/api/src/main.js', { ...env, PORT: String(ports.api) });
    processes.set('api', apiProcess);
    api = await waitForUrl(apiProcess); // migrates the fresh database
    const edge = startProcess('dist/apps/edge/src/main.js', { ...env, PORT: String(ports.edge) });
    processes.set('edge', edge);
    await Promise.all([startNode(), waitForUrl(edge)]);
    await eventually(
      () =>
        pg.query<{ n: number }>('select count(*)::int as n from shard_leases where owner = $1 and expires_at > now()', [
          'n1',
        ]),
      (rows) => rows[0]?.n === 4096,
      { timeoutMs: 60_000, what: 'n1 owning every shard' },
    );

    prometheus = await startPrometheus({
      targets: Object.fromEntries((['api', 'node', 'edge'] as const).map((job) => [job, [`127.0.0.1:${ports[job]}`]])),
      rulesFile: testRules(dir),
      intervalSeconds: INTERVAL_S,
    });
    await eventually(prometheus.targets, (targets) => targets.length === 3 && targets.every((t) => t.health === 'up'), {
      timeoutMs: 20_000,
      what: 'every target scraped',
    });
    // An evaluation between Prometheus's first scrapes of the api and of the node saw no shard owned.
    await eventually(
      async () => ({
        owned: await shardsOwned(),
        pages: (await prometheus.alerts()).filter((a) => a.labels.severity === 'page'),
      }),
      ({ owned, pages }) => owned === 4096 && pages.length === 0,
      { timeoutMs: 20_000, what: 'Prometheus seeing every shard owned and no page pending' },
    );
    log = new AlertLog(prometheus);
    log.start();
  }, 240_000);

  afterAll(async () => {
    console.log(`alert figures (ms): ${JSON.stringify(figures)}`);
    await log?.stop();
    await prometheus?.stop();
    await stopAllProcesses();
    await issuers?.stop();
    await Promise.all([pg?.destroy(), dns?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a quiet cluster pages nobody', async () => {
    expect(await shardsOwned()).toBe(4096);
    await quietFor((TEST_FOR_S + 3 * INTERVAL_S) * 1000 + 2_000);
  });

  it('SIGKILL of the node: ShardsUnowned fires, and resolves once the node is back', async () => {
    const node = processes.get('node')!;
    node.child.kill('SIGKILL');
    await node.exited;
    const from = Date.now();
    await firesAndResolves('ShardsUnowned', from, async () => void (await startNode()));
    expect(log.pages(from)).toEqual(['ShardsUnowned']);
    await quietFor((TEST_FOR_S + 2 * INTERVAL_S) * 1000);
  });

  it('PostgreSQL stopped: DatabaseUnreachable fires for every process, and resolves once it is back', async () => {
    await pg.crash();
    const from = Date.now();
    // One alert per process: api, node and edge each lost the database.
    const everyProcess = (alerts: PrometheusAlert[]) => new Set(alerts.map((a) => a.labels.component)).size === 3;
    await firesAndResolves('DatabaseUnreachable', from, () => pg.start(), everyProcess);
    // Without the database the node cannot renew its leases: its shards may go unowned as well.
    expect(log.pages(from).filter((name) => name !== 'ShardsUnowned')).toEqual(['DatabaseUnreachable']);
    await eventually(shardsOwned, (n) => n === 4096, { timeoutMs: 60_000, what: 'every shard owned again' });
    await quietFor((TEST_FOR_S + 2 * INTERVAL_S) * 1000);
  });

  it('the CA unreachable: CertificateIssuanceFailing fires for it, and resolves after it is back', async () => {
    const { apiKey } = await purchaseWorkspace(api, 'pm_card_visa');
    cas.letsencrypt.down(true);
    for (const hostname of ['alert-a.customer-a.com', 'alert-b.customer-a.com']) {
      dns.setRecords(hostname, [{ type: 'CNAME', data: CERTIFICATE_EDGE }]);
      const res = await fetch(`${api}/v1/domains`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ hostname, originUrl: ORIGIN_URL }),
      });
      expect(res.status).toBe(201);
    }
    // The fault reaches the metrics when the node's orders have failed at the CA.
    const failures = () =>
      fetch(`http://127.0.0.1:${ports.node}/metrics`)
        .then((r) => r.text())
        .then((text) =>
          Number(
            /certificate_order_attempts_total\{issuer="letsencrypt",outcome="ca_unavailable"\} (\d+)/.exec(text)?.[1] ??
              0,
          ),
        );
    await eventually(failures, (n) => n >= TEST_ISSUANCE_MIN_FAILURES, {
      timeoutMs: 60_000,
      what: 'an order failed at the CA',
    });
    const from = Date.now();
    const forThisCa = (alerts: PrometheusAlert[]) => alerts.some((a) => a.labels.issuer === 'letsencrypt');
    await firesAndResolves('CertificateIssuanceFailing', from, async () => cas.letsencrypt.down(false), forThisCa);
    const [alert] = log.seen.filter((s) => s.name === 'CertificateIssuanceFailing');
    expect(alert.severity).toBe('ticket');
    expect(log.pages(from)).toEqual([]);
  });

  it('nothing pages once every fault has ended', async () => {
    await quietFor((TEST_FOR_S + 3 * INTERVAL_S) * 1000);
    const active = (await prometheus.alerts()).filter((a) => a.labels.severity === 'page');
    expect(active.map((a) => `${a.labels.alertname} ${a.state}`)).toEqual([]);
  });
});

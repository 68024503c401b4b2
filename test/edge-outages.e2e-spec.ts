/**
 * @run-alone: its assertions include times (an edge started mid-outage serving within 30 s, API
 * changes at every edge within a second), so it starts after every other file and waits for them
 * to finish (test/support/run-alone.ts).
 */
import {
  DnsServer,
  LoopbackOrigin,
  PrivateNats,
  PrivatePostgres,
  ServiceProcess,
  TestCertificate,
  clusterProcessEnv,
  domainEnv,
  domainZones,
  edgeRequest,
  eventually,
  freePort,
  issueCertificate,
  judgeTimes,
  purchaseWorkspace,
  runAlone,
  sleep,
  startDnsServer,
  startLoopbackOrigin,
  startPrivateNats,
  startPrivatePostgres,
  startCpuAccounting,
  startProcess,
  stopAllProcesses,
  storeCertificate,
  testCertificateAuthority,
  uniqueSubjectPrefix,
  waitForUrl,
} from '@test/support';
import { mkdirSync, writeFileSync } from 'node:fs';

/** Each outage lasts this long under traffic (5 minutes for the full measure: EDGE_OUTAGE_SECONDS=300). */
const OUTAGE_MS = Number(process.env.EDGE_OUTAGE_SECONDS ?? 15) * 1_000;
const PROXIED = 24;
const REDIRECTED = 8;
jest.setTimeout(600_000);

interface Site {
  hostname: string;
  id: string;
  redirect: boolean;
  cert: TestCertificate;
  /** Fingerprints a visitor accepts (two while a renewal reaches the edges). */
  accepted: Set<string>;
}

interface Edge {
  proc: ServiceProcess;
  url: string;
  http: number;
  https: number;
}

/**
 * The edge through control-plane outages, with real processes: an api, a node and edges on a
 * PostgreSQL and a NATS of this file's own, real TLS clients verifying every certificate. PostgreSQL
 * crashed (a second edge started during it), NATS killed, then both: every request to every
 * hostname served before must succeed, each checked on its own; then an API change reaches every
 * edge within a second and an edge cut off from NATS catches up from the log, not by a reload.
 */
describe('the edge through PostgreSQL and NATS outages (real processes, real TLS)', () => {
  const prefix = uniqueSubjectPrefix();
  const ca = testCertificateAuthority();
  let pg: PrivatePostgres;
  let nats: PrivateNats;
  let dns: DnsServer;
  let origin: LoopbackOrigin;
  let env: Record<string, string>;
  let api: string;
  let apiKey: string;
  const edges: Edge[] = [];
  const others: ServiceProcess[] = [];
  const sites: Site[] = [];
  const failures: string[] = [];
  const served: Record<string, number> = {};
  const figures: Record<string, unknown> = {};
  let phase = 'setup';
  let traffic: { stop(): Promise<void> } | undefined;

  async function startEdge(name: string): Promise<Edge> {
    const [http, https] = [await freePort(), await freePort()];
    const proc = startProcess('dist/apps/edge/src/main.js', {
      ...env,
      NODE_ID: name,
      EDGE_HTTP_PORT: String(http),
      EDGE_HTTPS_PORT: String(https),
    });
    const edge = { proc, url: await waitForUrl(proc), http, https };
    edges.push(edge);
    return edge;
  }

  /** One visitor's request on a new TLS connection; a message when anything is not as served before. */
  async function visit(edge: Edge, site: Site): Promise<string | undefined> {
    try {
      const res = await edgeRequest('https', { port: edge.https, hostname: site.hostname, path: '/p', ca: ca.certPem });
      if (!site.accepted.has(res.fingerprint256 ?? '')) return `${site.hostname}: another certificate`;
      if (site.redirect) {
        if (res.status !== 301 || res.headers.location !== 'https://origin.saas-test.net/go/p') {
          return `${site.hostname}: ${res.status} ${String(res.headers.location)}`;
        }
        const plain = await edgeRequest('http', { port: edge.http, hostname: site.hostname, path: '/p' });
        if (plain.status !== 308) return `${site.hostname} over HTTP: ${plain.status}`;
        return undefined;
      }
      if (res.status !== 200 || JSON.parse(res.body).url !== '/base/p') return `${site.hostname}: ${res.status}`;
    } catch (error) {
      return `${site.hostname}: ${(error as Error).message}`;
    }
    return undefined;
  }

  /** Visitors on every edge, round robin over every site, until stopped; each answer is checked. */
  function startTraffic(concurrency: number) {
    let running = true;
    let n = 0;
    const workers = Array.from({ length: concurrency }, async () => {
      while (running) {
        const i = n++;
        const edge = edges[i % edges.length];
        const site = sites[i % sites.length];
        const problem = await visit(edge, site);
        if (problem) failures.push(`${phase}: ${problem}`);
        else served[phase] = (served[phase] ?? 0) + 1;
      }
    });
    return {
      stop: async () => {
        running = false;
        await Promise.all(workers);
      },
    };
  }

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json().catch(() => undefined)) as any };
  }

  async function changesApplied(edge: Edge): Promise<number> {
    const text = await (await fetch(`${edge.url}/metrics`)).text();
    return Number(/^edge_replica_changes_total (\d+)/m.exec(text)?.[1] ?? NaN);
  }

  beforeAll(async () => {
    await runAlone();
    [pg, nats, dns, origin] = await Promise.all([
      startPrivatePostgres(),
      startPrivateNats(),
      startDnsServer(domainZones()),
      startLoopbackOrigin(),
    ]);
    env = {
      ...clusterProcessEnv(pg.url, prefix),
      NATS_URL: nats.url,
      ...domainEnv(dns.address),
      RATE_LIMITS: 'off',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      LOG_LEVEL: 'info',
    };
    const apiProcess = startProcess('dist/apps/api/src/main.js', env);
    api = await waitForUrl(apiProcess);
    const node = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'n1' });
    await waitForUrl(node);
    others.push(apiProcess, node);
    await startEdge('e1');
    ({ apiKey } = await purchaseWorkspace(api, 'pm_card_visa'));
    for (let i = 0; i < PROXIED + REDIRECTED; i++) {
      const redirect = i >= PROXIED;
      const hostname = `${redirect ? 'r' : 'p'}${i}.edge-outage-test.com`;
      const body = redirect
        ? { hostname, originUrl: 'https://origin.saas-test.net/go', mode: 'redirect' }
        : { hostname, originUrl: `http://127.0.0.1:${origin.port}/base` };
      const created = await eventually(
        () => call('POST', '/v1/domains', body),
        (r) => r.status === 201,
        {
          timeoutMs: 60_000,
          what: `${hostname} created`,
        },
      );
      const cert = issueCertificate({ hostnames: [hostname], issuer: ca });
      const site = {
        hostname,
        id: created.json.domain.id as string,
        redirect,
        cert,
        accepted: new Set([cert.fingerprint256]),
      };
      await storeCertificate(pg, site, cert);
      sites.push(site);
    }
    for (const site of sites) {
      await eventually(
        () => visit(edges[0], site),
        (problem) => problem === undefined,
        { timeoutMs: 10_000, what: `${site.hostname} served by the edge` },
      );
    }
    traffic = startTraffic(4);
  }, 300_000);

  afterAll(async () => {
    await traffic?.stop();
    console.log(`edge outage figures: ${JSON.stringify({ ...figures, served, failures: failures.slice(0, 20) })}`);
    mkdirSync('test/artifacts', { recursive: true });
    writeFileSync('test/artifacts/edge-outages-figures.json', JSON.stringify({ ...figures, served }, null, 2));
    edges.forEach((e, i) => writeFileSync(`test/artifacts/edge-outages-e${i + 1}.log`, e.proc.output()));
    others.forEach((p, i) => writeFileSync(`test/artifacts/edge-outages-${['api', 'node'][i]}.log`, p.output()));
    await stopAllProcesses();
    await Promise.all([nats?.stop(), pg?.destroy(), dns?.close(), origin?.close()]);
  });

  it('serves every hostname through a PostgreSQL crash, and an edge started during it serves them all', async () => {
    phase = 'postgres down';
    await pg.crash();
    const crashed = Date.now();
    const cpu = startCpuAccounting();
    const late = await startEdge('e2');
    for (const site of sites) {
      await eventually(
        () => visit(late, site),
        (problem) => problem === undefined,
        { timeoutMs: 30_000, everyMs: 50, what: `${site.hostname} on the edge started during the outage` },
      );
    }
    figures.lateEdgeServesAllMs = Date.now() - crashed;
    // Ready all along: an edge taken out of its Service for a database outage would serve nobody.
    for (const edge of edges) {
      const ready = await fetch(`${edge.url}/readyz`);
      expect([ready.status, ((await ready.json()) as { checks: unknown }).checks]).toEqual([
        200,
        { database: 'down', bus: 'ok' },
      ]);
    }
    // Its start (a process) plus the 30 s goal; all hostnames served is asserted above either way.
    judgeTimes(cpu.stop(), 'edge started during the outage', () =>
      expect(figures.lateEdgeServesAllMs).toBeLessThan(30_000 + 15_000),
    );
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - crashed)));
    expect(failures).toEqual([]);
    expect(served[phase]).toBeGreaterThan(sites.length);
    await pg.start();
  });

  it('serves every hostname with NATS killed, and the cut-off edges catch up from the log when it returns', async () => {
    // The monitor's first probes after creation change monitor statuses: start once the log is quiet.
    const lastSeq = async () =>
      Number((await pg.query<{ s: string }>('select max(seq) as s from edge_change_log'))[0].s);
    await eventually(
      async () => {
        const first = await lastSeq();
        await sleep(3_000);
        return first === (await lastSeq());
      },
      Boolean,
      { timeoutMs: 120_000, what: 'no route change for 3 s' },
    );
    phase = 'nats down';
    const before = await Promise.all(edges.map(changesApplied));
    const seqAtKill = await lastSeq();
    await nats.kill();
    // A renewal stored meanwhile: logged in PostgreSQL, waiting for NATS to reach the edges.
    const renewedSite = sites[0];
    const renewed = issueCertificate({ hostnames: [renewedSite.hostname], issuer: ca });
    await storeCertificate(pg, renewedSite, renewed);
    await sleep(OUTAGE_MS);
    expect(failures).toEqual([]);
    expect(served[phase]).toBeGreaterThan(sites.length);
    phase = 'nats back';
    renewedSite.accepted.add(renewed.fingerprint256);
    await nats.start();
    const back = Date.now();
    await eventually(
      () => Promise.all(edges.map((e) => visit(e, { ...renewedSite, accepted: new Set([renewed.fingerprint256]) }))),
      (problems) => problems.every((p) => p === undefined),
      { timeoutMs: 20_000, everyMs: 50, what: 'the renewal at every edge after NATS returned' },
    );
    figures.renewalAfterNatsBackMs = Date.now() - back;
    const applied = (await Promise.all(edges.map(changesApplied))).map((n, i) => n - before[i]);
    const [{ n: changed }] = await pg.query<{ n: number }>(
      'select count(distinct hostname)::int as n from edge_change_log where seq > $1',
      [seqAtKill],
    );
    figures.catchUp = { changedHostnames: changed, appliedByEachEdge: applied, hostnames: sites.length };
    // A reload would apply every hostname again; a catch-up only what changed meanwhile.
    expect(changed).toBeLessThan(sites.length / 2);
    for (const n of applied) expect(n).toBeLessThanOrEqual(changed);
    renewedSite.accepted = new Set([renewed.fingerprint256]);
    expect(failures).toEqual([]);
  });

  it('serves every hostname with PostgreSQL and NATS both down', async () => {
    phase = 'both down';
    await Promise.all([pg.crash(), nats.kill()]);
    await sleep(OUTAGE_MS);
    expect(failures).toEqual([]);
    expect(served[phase]).toBeGreaterThan(sites.length);
    await Promise.all([pg.start(), nats.start()]);
  });

  it('shows an API change at every edge within a second (PATCH origin, DELETE)', async () => {
    phase = 'after';
    const site = sites.find((s) => !s.redirect)!;
    // Out of the visitors' rotation: its answers change on purpose.
    sites.splice(sites.indexOf(site), 1);
    await eventually(
      () => call('PATCH', `/v1/domains/${site.id}`, { keepHost: true }),
      (r) => r.status === 200,
      {
        timeoutMs: 90_000,
        what: 'the api writable again',
      },
    );
    const cpu = startCpuAccounting();
    const patched = Date.now();
    const res = await call('PATCH', `/v1/domains/${site.id}`, { originUrl: `http://127.0.0.1:${origin.port}/moved` });
    expect(res.status).toBe(200);
    const path = async (e: Edge) =>
      JSON.parse(
        (await edgeRequest('https', { port: e.https, hostname: site.hostname, path: '/x', ca: ca.certPem })).body,
      ).url as string;
    await eventually(
      () => Promise.all(edges.map(path)),
      (paths) => paths.every((p) => p === '/moved/x'),
      { timeoutMs: 5_000, everyMs: 20, what: 'the new origin at every edge' },
    );
    figures.patchVisibleMs = Date.now() - patched;
    const deleted = Date.now();
    expect((await call('DELETE', `/v1/domains/${site.id}`)).status).toBe(200);
    await eventually(
      () => Promise.all(edges.map((e) => visit(e, { ...site, redirect: false }))),
      (problems) => problems.every((p) => p !== undefined && /socket|TLS|alert|ECONNRESET/i.test(p)),
      { timeoutMs: 5_000, everyMs: 20, what: 'the deleted hostname gone from every edge' },
    );
    figures.deleteVisibleMs = Date.now() - deleted;
    judgeTimes(cpu.stop(), 'API change at every edge', () => {
      expect(figures.patchVisibleMs).toBeLessThan(1_000);
      expect(figures.deleteVisibleMs).toBeLessThan(1_000);
    });
    expect(failures).toEqual([]);
  });
});

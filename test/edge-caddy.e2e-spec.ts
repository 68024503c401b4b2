import {
  DnsServer,
  LoopbackOrigin,
  REPO_ROOT,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  edgeRequest,
  eventuallyDefined,
  freePort,
  loopbackStandalone,
  startDnsServer,
  startLoopbackOrigin,
  startTestApp,
  tlsHandshake,
  websocketEcho,
} from '@test/support';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';

const CADDY = process.env.CADDY_BIN ?? '/usr/bin/caddy';

/**
 * k8s/caddy/Caddyfile as committed, with one change: Caddy's own internal CA issues the on-demand
 * certificates instead of ACME (no network in tests), and it is told not to touch the system trust store.
 */
function testCaddyfile(): string {
  const committed = readFileSync(join(REPO_ROOT, 'k8s/caddy/Caddyfile'), 'utf8');
  const swapped = committed
    .replace(/issuer acme \{[^}]*\}/, 'issuer internal')
    .replace('admin off', 'admin off\n\tskip_install_trust');
  if (!swapped.includes('issuer internal') || !swapped.includes('skip_install_trust')) {
    throw new Error('k8s/caddy/Caddyfile changed shape: update testCaddyfile()');
  }
  return swapped;
}

const portOpen = (port: number) =>
  new Promise<true | undefined>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(undefined));
  });

describe('Caddy on-demand TLS in front of the edge', () => {
  let dns: DnsServer;
  let origin: LoopbackOrigin;
  let t: TestApp;
  let caddy: ChildProcess | undefined;
  let caddyOutput = '';
  let dir: string;
  let caddyPort: number;
  let caddyRoot: string;

  beforeAll(async () => {
    // A missing Caddy fails the suite, as a missing Pebble or Chromium does (.ci/run installs it).
    if (!existsSync(CADDY)) throw new Error(`${CADDY} is not installed: apt-get install caddy, or set CADDY_BIN`);
    dir = mkdtempSync(join(tmpdir(), 'caddy-'));
    dns = await startDnsServer(domainZones());
    origin = await startLoopbackOrigin();
    const edge = { http: await freePort(), https: await freePort(), api: await freePort() };
    caddyPort = await freePort();
    t = await startTestApp({
      env: {
        ...domainEnv(dns.address),
        EDGE_HTTP_PORT: String(edge.http),
        EDGE_HTTPS_PORT: String(edge.https),
        OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
        TRUSTED_PROXIES: '127.0.0.1/32', // Caddy, in front of the edge's HTTP port
      },
      rootModule: loopbackStandalone,
    });
    await t.app.listen(edge.api, '127.0.0.1');
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'caddy', paymentMethod: 'pm_card_visa' })
      .expect(201);
    const auth = { authorization: `Bearer ${ws.body.apiKey}` };
    for (const hostname of ['shop.customer-a.com', 'nodns.customer-a.com']) {
      const created = await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .send({ hostname, originUrl: `${origin.url}/app` });
      await request(t.server).post(`/v1/domains/${created.body.domain.id}/check`).set(auth).expect(200);
    }

    const file = join(dir, 'Caddyfile');
    writeFileSync(file, testCaddyfile());
    caddy = spawn(CADDY, ['run', '--config', file, '--adapter', 'caddyfile'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        XDG_DATA_HOME: join(dir, 'data'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        EDGE_ASK_URL: `http://127.0.0.1:${edge.api}/edge/ask`,
        EDGE_UPSTREAM: `127.0.0.1:${edge.http}`,
        CADDY_HTTPS_PORT: String(caddyPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout?.on('data', (c: Buffer) => (caddyOutput += c.toString()));
    caddy.stderr?.on('data', (c: Buffer) => (caddyOutput += c.toString()));
    await eventuallyDefined(() => (caddy?.exitCode === null ? portOpen(caddyPort) : undefined), {
      what: 'Caddy to listen',
    }).catch((error: Error) => {
      throw new Error(`${error.message}; Caddy said:\n${caddyOutput}`);
    });
    const rootFile = join(dir, 'data/caddy/pki/authorities/local/root.crt');
    caddyRoot = await eventuallyDefined(() => (existsSync(rootFile) ? readFileSync(rootFile, 'utf8') : undefined), {
      what: 'Caddy local CA',
    });
  });

  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((resolve) => caddy?.once('exit', resolve));
      caddy.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    await origin?.close();
    await dns?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gets a certificate for a connected hostname with correct DNS and reaches the origin through the edge', async () => {
    const res = await edgeRequest('https', {
      port: caddyPort,
      hostname: 'shop.customer-a.com',
      path: '/x?y=1',
      ca: caddyRoot,
    });
    expect(res.authorized).toBe(true);
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body);
    expect(seen.url).toBe('/app/x?y=1');
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${origin.port}`,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'shop.customer-a.com',
      'x-forwarded-for': '127.0.0.1, 127.0.0.1',
    });
  });

  it('passes WebSockets through Caddy and the edge', async () => {
    expect(await websocketEcho(caddyPort, 'shop.customer-a.com', caddyRoot, 'via caddy', '/ws')).toEqual({
      status: 101,
      acceptValid: true,
      reply: 'echo:via caddy',
    });
  });

  it('gets no certificate for a hostname whose DNS is not correct, nor for an unknown one', async () => {
    await expect(tlsHandshake(caddyPort, 'nodns.customer-a.com')).rejects.toThrow();
    await expect(tlsHandshake(caddyPort, 'unknown.customer-a.com')).rejects.toThrow();
  });
});

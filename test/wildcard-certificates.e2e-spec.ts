import { X509Certificate } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Server, createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CERTIFICATE_EDGE as EDGE,
  CONSOLE_ARTIFACTS,
  CertificateStack,
  LoopbackOrigin,
  consoleShot,
  createConsoleUser,
  launchChromium,
  signInWithPassword,
  edgeRequest,
  servedCertificate,
  freePort,
  loopbackCertificate,
  sleep,
  startCertificateStack,
  startLoopbackOrigin,
} from '@test/support';
import request from 'supertest';

const ZONE = 'acme.saas-test.net';

/**
 * Wildcard hostnames and certificates before the cutover, against a real CA: Pebble validates DNS-01
 * by asking the loopback DNS server, which follows the customer's `_acme-challenge` CNAME into the
 * challenge zone and asks the service's own DNS listener there.
 */
describe('DNS-01 through the _acme-challenge delegation (Pebble)', () => {
  let stack: CertificateStack;
  let origin: LoopbackOrigin;

  beforeAll(async () => {
    const zonePort = await freePort();
    origin = await startLoopbackOrigin();
    stack = await startCertificateStack({
      env: {
        ACME_CHALLENGE_ZONE: ZONE,
        ACME_CHALLENGE_DNS_PORT: String(zonePort),
        OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8', // the loopback origin
      },
    });
    stack.dns.delegate(ZONE, `127.0.0.1:${zonePort}`);
  });
  afterAll(async () => {
    await stack?.close();
    await origin?.close();
  });

  const create = (auth: Record<string, string>, hostname: string, originUrl = origin.url) =>
    request(stack.t.server).post('/v1/domains').set(auth).send({ hostname, originUrl });
  const certificateOf = async (id: string) => {
    const [row] = await stack.t.db.query<{ cert_pem: string }>(
      'select cert_pem from certificates where domain_id = $1',
      [id],
    );
    return new X509Certificate(row.cert_pem);
  };

  it('issues a wildcard certificate once the delegation exists and serves every name one label under it', async () => {
    const { dns, t, auth, httpsPort, waitFor } = stack;
    dns.setRecords('*.wild-a.com', [{ type: 'CNAME', data: EDGE }]);
    const created = await create(auth, '*.Wild-A.com').expect(201);
    const domain = created.body.domain;
    expect(domain).toMatchObject({ hostname: '*.wild-a.com', apex: false });
    const [traffic, delegation] = domain.dnsRecords;
    expect(traffic).toEqual({ type: 'CNAME', name: '*.wild-a.com', value: EDGE, ttl: 3600, purpose: 'traffic' });
    expect(delegation).toMatchObject({ type: 'CNAME', name: '_acme-challenge.wild-a.com', purpose: 'certificate' });
    expect(delegation.value).toMatch(/^[0-9a-f]{32}\.acme\.saas-test\.net$/);

    // The connect instructions ask for the same two records, the delegation as a required step.
    const guide = (await request(t.server).get(`/v1/domains/${domain.id}/instructions`).set(auth).expect(200)).body
      .instructions;
    expect(guide.records).toEqual([
      { type: 'CNAME', name: '*', value: EDGE, ttl: 3600, purpose: 'traffic' },
      { type: 'CNAME', name: '_acme-challenge', value: delegation.value, ttl: 3600, purpose: 'certificate' },
    ]);
    expect(guide.steps.join('\n')).toContain('A wildcard certificate is validated through it');

    // Without the delegation the order stops before the CA, naming the record to add (until then the
    // customer's own wildcard record answers for _acme-challenge, as it would in real DNS).
    const stopped = await waitFor(domain.id, (d) => d.certificate.errorCode === 'dns_delegation');
    expect(stopped.monitorStatus).toBe('pending_ssl');
    expect(stopped.monitorMessage).toContain(`_acme-challenge.wild-a.com points at ${EDGE}`);
    expect(stopped.monitorMessage).toContain(`Add the record _acme-challenge.wild-a.com CNAME ${delegation.value}`);
    expect(stopped.certificate.attempts.at(-1)).toMatchObject({ issuer: 'dns', code: 'dns_delegation' });

    dns.setRecords('_acme-challenge.wild-a.com', [{ type: 'CNAME', data: delegation.value }]);
    await request(t.server).post(`/v1/domains/${domain.id}/check`).set(auth).expect(200);
    const verified = await waitFor(domain.id, (d) => d.status === 'verified');
    expect(verified).toMatchObject({
      monitorStatus: 'active_ssl',
      certificate: { errorCode: null, issuer: 'acme' },
    });

    const stored = await certificateOf(domain.id);
    expect(stored.subjectAltName).toBe('DNS:*.wild-a.com');
    for (const name of ['a.wild-a.com', 'b.wild-a.com']) {
      const res = await edgeRequest('https', { port: httpsPort, hostname: name, path: `/from/${name}` });
      expect(res.status).toBe(200);
      expect(res.fingerprint256).toBe(stored.fingerprint256);
    }
    expect(origin.requests.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/from/a.wild-a.com', '/from/b.wild-a.com']),
    );
    // One label only: a.b.wild-a.com is not covered by *.wild-a.com.
    await expect(edgeRequest('https', { port: httpsPort, hostname: 'a.b.wild-a.com' })).rejects.toThrow();
    // Challenges are withdrawn after validation.
    expect(await t.db.query('select * from acme_dns_challenges')).toEqual([]);
  });

  it('lets an exact name in the same workspace win over the wildcard, with its own certificate and origin', async () => {
    const { dns, auth, httpsPort, waitFor } = stack;
    const own = await startLoopbackOrigin();
    try {
      dns.setRecords('shop.wild-a.com', [{ type: 'CNAME', data: EDGE }]);
      const { body } = await create(auth, 'shop.wild-a.com', own.url).expect(201);
      await waitFor(body.domain.id, (d) => d.status === 'verified');
      const exact = await certificateOf(body.domain.id);
      expect(exact.subjectAltName).toBe('DNS:shop.wild-a.com');
      const served = await servedCertificate(httpsPort, 'shop.wild-a.com');
      expect(served.fingerprint256).toBe(exact.fingerprint256);
      const res = await edgeRequest('https', { port: httpsPort, hostname: 'shop.wild-a.com', path: '/exact' });
      expect(res.status).toBe(200);
      expect(own.requests.map((r) => r.url)).toEqual(['/exact']);
      expect(origin.requests.map((r) => r.url)).not.toContain('/exact');
    } finally {
      await own.close();
    }
  });

  it('asks another workspace for the ownership proof before it takes a name under the wildcard, or the wildcard', async () => {
    const other = await stack.workspace('other-wildcard');
    const under = await create(other, 'x.wild-a.com').expect(409);
    expect(under.body).toMatchObject({
      error: 'conflict',
      details: { hostname: 'x.wild-a.com', wildcard: '*.wild-a.com', ownership: { type: 'TXT' } },
    });
    expect(under.body.details.ownership.name).toBe('_custom-domain-challenge.x.wild-a.com');
    const same = await create(other, '*.wild-a.com').expect(409);
    expect(same.body.details.ownership.name).toBe('_custom-domain-challenge.wild-a.com');

    // With the proof in DNS, the exact name is connected; the wildcard keeps every other name.
    stack.dns.setRecords('_custom-domain-challenge.x.wild-a.com', [
      { type: 'TXT', data: under.body.details.ownership.value as string },
    ]);
    const proven = await create(other, 'x.wild-a.com').expect(201);
    expect(proven.body.domain.hostname).toBe('x.wild-a.com');
  });

  it('judges a wildcard by issuewild at the name under its * label, with the record that would allow it', async () => {
    const { dns, auth, waitFor } = stack;
    dns.setRecords('*.wild-caa.com', [{ type: 'CNAME', data: EDGE }]);
    dns.setRecords('wild-caa.com', [
      { type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
      { type: 'CAA', data: { flags: 0, tag: 'issuewild', value: ';' } },
    ]);
    const { body } = await create(auth, '*.wild-caa.com').expect(201);
    expect(body.warnings?.[0]?.message).toContain('wild-caa.com. CAA 0 issuewild "letsencrypt.org"');
    const delegation = body.domain.dnsRecords[1];
    dns.setRecords('_acme-challenge.wild-caa.com', [{ type: 'CNAME', data: delegation.value }]);
    const refused = await waitFor(body.domain.id, (d) => d.certificate.errorCode === 'caa_forbids');
    expect(refused.monitorStatus).toBe('ssl_failed');
    expect(refused.monitorMessage).toContain('wild-caa.com. CAA 0 issuewild "letsencrypt.org"');
  });

  it('refuses wildcards over a public suffix, more than one wildcard label, and a www twin', async () => {
    for (const hostname of ['*.com', '*.co.uk', '*.github.io', '*.*.wild-a.com']) {
      const { body } = await create(stack.auth, hostname).expect(400);
      expect(body).toMatchObject({ error: 'bad_request', details: { field: 'hostname' } });
    }
    const twin = await request(stack.t.server)
      .post('/v1/domains')
      .set(stack.auth)
      .send({ hostname: '*.www-twin.com', originUrl: origin.url, redirectWww: true })
      .expect(400);
    expect(twin.body).toMatchObject({ error: 'bad_request', details: { field: 'redirectWww' } });
  });

  it('issues the certificate before the cutover, says ready_to_switch, and serves the first request after it', async () => {
    const { dns, t, auth, httpsPort, waitFor } = stack;
    const hostname = 'www.moving-b.com';
    const previous = await startPreviousProvider();
    try {
      // The customer's DNS still points at the previous provider; only the delegation is ours.
      dns.setRecords(hostname, [{ type: 'A', data: '192.0.2.55' }]);
      const { body } = await create(auth, hostname).expect(201);
      const delegation = body.domain.dnsRecords.find((r: { purpose: string }) => r.purpose === 'certificate');
      expect(delegation.name).toBe(`_acme-challenge.${hostname}`);
      dns.setRecords(delegation.name, [{ type: 'CNAME', data: delegation.value }]);
      await request(t.server).post(`/v1/domains/${body.domain.id}/check`).set(auth).expect(200);
      const ready = await waitFor(body.domain.id, (d) => d.monitorStatus === 'ready_to_switch');
      expect(ready).toMatchObject({
        status: 'pending',
        monitorMessage: 'Ready: the certificate is issued, switch your DNS to us now',
      });
      const stored = await certificateOf(body.domain.id);
      const events = await t.db.query<{ type: string }>(
        'select type from outbox_events where aggregate_id = $1 order by created_at',
        [body.domain.id],
      );
      expect(events.map((e) => e.type)).toContain('domain.ready_to_switch');

      // Visitors resolve the name on every request while DNS moves to the edge in the middle.
      const resolver = new Resolver({ timeout: 2_000, tries: 2 });
      resolver.setServers([dns.address]);
      const outcomes: Array<{ via: 'edge' | 'previous'; ok: boolean; detail: string }> = [];
      const visit = async () => {
        const cname = await resolver.resolveCname(hostname).catch(() => []);
        if (cname[0] !== EDGE) {
          const res = await previous.get(hostname);
          outcomes.push({ via: 'previous', ok: res === 200, detail: String(res) });
          return;
        }
        const res = await edgeRequest('https', { port: httpsPort, hostname, path: '/after-cutover' }).catch(
          (error: Error) => ({ status: 0, fingerprint256: error.message }),
        );
        const ok = res.status === 200 && res.fingerprint256 === stored.fingerprint256;
        outcomes.push({ via: 'edge', ok, detail: `${res.status} ${res.fingerprint256}` });
      };
      let switched = false;
      const load = (async () => {
        const until = Date.now() + 4_000;
        while (Date.now() < until) await Promise.all([visit(), visit(), visit(), visit()]);
      })();
      await sleep(1_500);
      dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE }]);
      switched = true;
      await load;
      expect(switched).toBe(true);
      const failed = outcomes.filter((o) => !o.ok);
      expect(failed).toEqual([]);
      expect(outcomes.filter((o) => o.via === 'previous').length).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.via === 'edge').length).toBeGreaterThan(10);
      const verified = await waitFor(body.domain.id, (d) => d.status === 'verified');
      expect(verified.monitorStatus).toBe('active_ssl');
    } finally {
      await previous.close();
    }
  });

  it('shows the delegation and ready to switch in the widget and the console, on a desktop and a phone', async () => {
    const { dns, t, auth, waitFor } = stack;
    const hostname = 'shop.ready-c.com';
    dns.setRecords(hostname, [{ type: 'A', data: '192.0.2.56' }]);
    const { body } = await create(auth, hostname).expect(201);
    const delegation = body.domain.dnsRecords.find((r: { purpose: string }) => r.purpose === 'certificate');
    dns.setRecords(delegation.name, [{ type: 'CNAME', data: delegation.value }]);
    await request(t.server).post(`/v1/domains/${body.domain.id}/check`).set(auth).expect(200);
    await waitFor(body.domain.id, (d) => d.monitorStatus === 'ready_to_switch');

    const base = await listeningUrl(t);
    const session = await request(t.server).post(`/v1/domains/${body.domain.id}/connect-session`).set(auth).expect(200);
    const [{ workspace_id: ws }] = await t.db.query<{ workspace_id: string }>(
      'select workspace_id from domains where id = $1',
      [body.domain.id],
    );
    const login = await createConsoleUser(t, {
      email: 'support@ready-c.com',
      password: 'ready-c password 1',
      operator: true,
    });
    const browser = await launchChromium();
    try {
      for (const [device, viewport] of [
        ['desktop', { width: 1280, height: 900 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        const widget = await browser.newPage({ viewport });
        await widget.goto(`${base}/widget/demo?token=${session.body.connectSession.token as string}`);
        const status = widget.getByRole('status');
        await status.waitFor();
        await expect(status.getAttribute('data-status')).resolves.toBe('ready_to_switch');
        await expect(status.textContent()).resolves.toContain('Ready to switch');
        await expect(widget.getByRole('table').textContent()).resolves.toContain(delegation.value);
        await expect(widget.getByText(/lets us issue your certificate before you switch/).count()).resolves.toBe(1);
        await widget.screenshot({
          path: join(CONSOLE_ARTIFACTS, `widget-ready-to-switch-${device}.png`),
          fullPage: true,
        });

        const context = await browser.newContext({ viewport });
        const page = await signInWithPassword(context, base, login);
        await page.goto(`${base}/console/w/${ws}/domains/${body.domain.id as string}`);
        await page.getByRole('heading', { name: hostname }).waitFor();
        await expect(page.locator('main').textContent()).resolves.toContain('Ready: the certificate is issued');
        await expect(page.locator('main').textContent()).resolves.toContain(delegation.name);
        // Nothing runs off the side: the page is as wide as the screen (tables scroll inside their box).
        const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
        expect(width).toBeLessThanOrEqual(viewport.width);
        if (device === 'phone') {
          await page.getByText('Menu', { exact: true }).click();
          await expect(
            page.getByRole('navigation', { name: 'Console menu' }).getByRole('link', { name: 'Domains' }).isVisible(),
          ).resolves.toBe(true);
        }
        await consoleShot(page, `domain-ready-to-switch-${device}`);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});

/** The provider the customer moves away from: any HTTPS server answering 200. */
async function startPreviousProvider(): Promise<{ get(hostname: string): Promise<number>; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'previous-provider-'));
  const { certFile, keyFile } = loopbackCertificate(dir, 'previous-provider');
  const server: Server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (_req, res) =>
    res.end('previous provider'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    get: (hostname) =>
      edgeRequest('https', { port, hostname }).then(
        (res) => res.status,
        () => 0,
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The app's base URL, listening on a loopback port (the browser needs a real address). */
async function listeningUrl(t: CertificateStack['t']): Promise<string> {
  const address = t.server.address();
  if (!address || typeof address === 'string') await t.app.listen(0, '127.0.0.1');
  return (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
}

import {
  DnsServer,
  EDGE_TARGET,
  ORIGIN_URL,
  REGISTRANT,
  TEST_SIGNING_SECRET,
  TestApp,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  purchaseWorkspace,
  startDnsServer,
  startTestApp,
  uniqueDomain,
} from '@test/support';
import { mkdirSync } from 'node:fs';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright-core';
import request from 'supertest';
import { connectSessionKey, signConnectSession } from '../libs/connect-sessions/src/connect-session.token';
import { CloudflareFake, startCloudflareFake } from './fakes/cloudflare-server';

const HOST = 'widget.customer-a.com';
const CF_TOKEN = 'cf-widget-token-0123456789';
const ARTIFACTS = join(__dirname, 'artifacts');
const INVALID_LINK = 'This connect link is not valid: it may be incomplete or changed. Ask for a new one.';

/** The SaaS's own page, on another origin than the API: the widget works there through CORS only. */
async function startSaasPage(apiUrl: string, token: string): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme: your domain</title>
<style>body{font-family:Georgia,serif;background:#fafafa;margin:24px} .card{color:red}</style></head>
<body><h1>Acme settings</h1><div id="connect"></div>
<script src="${apiUrl}/widget.js"></script>
<script>CustomDomainWidget.mount(document.getElementById('connect'), { token: ${JSON.stringify(token)}, pollSeconds: 600 });</script>
</body></html>`;
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

describe('the connect widget in headless Chromium', () => {
  let dns: DnsServer;
  let cloudflare: CloudflareFake;
  let t: TestApp;
  let browser: Browser;
  let saas: Server | undefined;

  beforeAll(async () => {
    dns = await startDnsServer({
      ...domainZones(),
      'customer-a.com': [
        { type: 'NS', data: 'ada.ns.cloudflare.com' },
        { type: 'NS', data: 'bob.ns.cloudflare.com' },
      ],
    });
    cloudflare = await startCloudflareFake({
      tokens: { [CF_TOKEN]: { permissions: ['zone:read', 'dns:edit'] } },
      zones: ['customer-a.com'],
    });
    t = await startTestApp({ env: { ...domainEnv(dns.address), CLOUDFLARE_API_URL: cloudflare.url } });
    await t.app.listen(0, '127.0.0.1');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (saas ? saas.close(done) : done(undefined)));
    await t?.close();
    await cloudflare?.close();
    await dns?.close();
  });

  it('renders the records, applies with a DNS token, and "Check now" shows the new status', async () => {
    const { apiKey } = await createWorkspaceVia(t.server);
    const auth = { authorization: `Bearer ${apiKey}` };
    const created = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: HOST, originUrl: ORIGIN_URL })
      .expect(201);
    const id = created.body.domain.id as string;
    await request(t.server).post(`/v1/domains/${id}/check`).set(auth).expect(200);
    const session = await request(t.server).post(`/v1/domains/${id}/connect-session`).set(auth).expect(200);
    const apiUrl = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const page$ = await startSaasPage(apiUrl, session.body.connectSession.token);
    saas = page$.server;

    const context = await browser.newContext({ viewport: { width: 900, height: 1100 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: page$.url.replace(/\/$/, '') });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The browser logs failed responses itself (the 422 below is expected); anything else is a widget fault.
    page.on(
      'console',
      (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()),
    );
    await page.goto(page$.url);

    // The records, the provider's steps and quirks, the status from the monitor.
    const table = page.getByRole('table');
    await table.waitFor();
    await expect(table.textContent()).resolves.toContain(EDGE_TARGET);
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toContain(HOST);
    await expect(page.getByText('Your DNS is hosted at Cloudflare').count()).resolves.toBe(1);
    expect(await page.locator('.quirks li').count()).toBeGreaterThan(0);
    const status = page.getByRole('status');
    await expect(status.getAttribute('data-status')).resolves.toBe('dns_not_resolving');
    await expect(status.textContent()).resolves.toContain('Add the CNAME record at your registrar');

    // Copy buttons are real buttons with names and put the value on the clipboard.
    await page.getByRole('button', { name: 'Copy CNAME value' }).click();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(EDGE_TARGET);

    // The apply form: a labelled field; a bad token shows the provider's refusal, a good one applies.
    await page.getByLabel('DNS provider', { exact: true }).selectOption('cloudflare');
    await page.getByLabel('API token', { exact: true }).fill('not-a-real-token');
    await page.getByRole('button', { name: 'Apply records' }).click();
    await page.locator('.result.error').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Cloudflare rejected the API token/);
    await page.getByLabel('API token', { exact: true }).fill(CF_TOKEN);
    await page.getByRole('button', { name: 'Apply records' }).click();
    await page.locator('.result.success').waitFor();
    await expect(page.getByLabel('API token', { exact: true }).inputValue()).resolves.toBe('');
    expect(cloudflare.records.map((r) => [r.name, r.type, r.content, r.proxied])).toEqual([
      [HOST, 'CNAME', EDGE_TARGET, false],
    ]);

    // DNS becomes right after the page loaded; "Check now" (by keyboard) shows it without a reload.
    dns.setRecords(HOST, [{ type: 'CNAME', data: EDGE_TARGET }]);
    await page.getByRole('button', { name: 'Check now' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      "document.querySelector('#connect').shadowRoot.querySelector('[data-status]').dataset.status === 'pending_ssl'",
    );
    // Then the certificate's progress: being issued, or (the stand-in CA refuses) that we retry, nothing to do.
    await expect(status.textContent()).resolves.toMatch(/SSL is being issued|Nothing to do on your side/);
    await expect(status.getAttribute('aria-live')).resolves.toBe('polite');
    // The host page's styles did not leak into the widget (shadow DOM).
    const color = await page
      .locator('.card')
      .evaluate((el) => (globalThis as any).getComputedStyle(el).color as string);
    expect(color).not.toBe('rgb(255, 0, 0)');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'widget.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the demo page mounts the widget from ?token=', async () => {
    const { apiKey } = await createWorkspaceVia(t.server);
    const auth = { authorization: `Bearer ${apiKey}` };
    const created = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'demo.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const session = await request(t.server)
      .post(`/v1/domains/${created.body.domain.id}/connect-session`)
      .set(auth)
      .expect(200);
    const page = await browser.newPage();
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    await page.goto(`${base}/widget/demo?token=${session.body.connectSession.token}`);
    await page.getByRole('table').waitFor();
    await expect(page.getByRole('heading', { level: 2, name: /demo\.customer-a\.com/ }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'widget-demo.png'), fullPage: true });
    // A token that does not verify: the widget says so instead of rendering half a page.
    const [head, payload] = (session.body.connectSession.token as string).split('.');
    await page.goto(`${base}/widget/demo?token=${head}.${payload}.forged`);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(INVALID_LINK);
    // One whose own expiry has passed: expired, and nothing else.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { ws: string; dom: string; jti: string };
    const expired = signConnectSession(
      connectSessionKey(TEST_SIGNING_SECRET),
      { workspaceId: claims.ws, domainId: claims.dom, jti: claims.jti, expiresAt: Math.floor(Date.now() / 1000) - 60 },
      Date.now() - 3_600_000,
    );
    await page.goto(`${base}/widget/demo?token=${expired}`);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This connect link has expired. Ask for a new one.',
    );
    await page.close();
  });

  it('a domain bought through the SaaS on our registrar’s DNS asks for nothing (desktop and phone)', async () => {
    const { apiKey } = await purchaseWorkspace(t.server, 'pm_card_visa');
    const auth = { authorization: `Bearer ${apiKey}` };
    const hostname = uniqueDomain('widget');
    const bought = await request(t.server)
      .post('/v1/domain-purchases')
      .set(auth)
      .send({ hostname, registrant: REGISTRANT, autoConnect: { originUrl: ORIGIN_URL } })
      .expect(201);
    const domainId = bought.body.purchase.connectedDomainId as string;
    const session = await request(t.server).post(`/v1/domains/${domainId}/connect-session`).set(auth).expect(200);
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const page = await browser.newPage({ viewport });
      // The end customer's own page behind the connect link.
      await page.goto(`${base}/connect?token=${session.body.connectSession.token}`);
      await page.getByRole('table').waitFor();
      await expect(page.getByText('We set up the DNS for you: the domain was bought through us').count()).resolves.toBe(
        1,
      );
      await expect(page.getByRole('status').textContent()).resolves.toContain('nothing to add');
      await expect(page.getByRole('heading', { name: 'DNS records we set up' }).count()).resolves.toBe(1);
      // Nothing asks the owner to act: no steps, no provider token form.
      await expect(page.getByRole('button', { name: 'Apply records' }).count()).resolves.toBe(0);
      await expect(page.getByText('Add the').count()).resolves.toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, `widget-registrar-dns-${name}.png`), fullPage: true });
      await page.close();
    }
  });

  it('a link whose token is garbage says it is not valid and calls nothing (desktop and phone)', async () => {
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const calls: string[] = [];
      page.on('request', (r) => calls.push(r.url()));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${base}/widget/demo?token=cs_garbage`);
      await expect(page.getByRole('alert').textContent()).resolves.toBe(INVALID_LINK);
      // No API call at all (before: GET /v1/domains/undefined, then "expired").
      expect(calls.filter((url) => url.includes('/v1/'))).toEqual([]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `widget-invalid-link-${name}.png`), fullPage: true });
      await context.close();
    }
  });
});

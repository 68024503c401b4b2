import { DeliveryWorker } from '@app/webhooks';
import {
  DnsServer,
  EDGE_TARGET,
  ManualClock,
  TEST_ADMIN_TOKEN,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  eventually,
  startDnsServer,
  startTestAppWithClock,
  startWebhookReceiver,
} from '@test/support';
import { Browser } from 'playwright-core';
import request from 'supertest';
import { CONSOLE_ARTIFACTS, consoleShot, launchChromium, signInWithPassword } from './support/console-browser';
import { join } from 'node:path';

const OPERATOR = { email: 'ops@example.com', password: 'operator-password-1' };

// Whole user journeys in a real browser: slow on a loaded machine, so each test gets five minutes.
jest.setTimeout(300_000);

describe('the web console in headless Chromium', () => {
  const clock = new ManualClock(new Date());
  let t: TestApp;
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let base: string;
  let acme: string;

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    receiver = await startWebhookReceiver();
    t = await startTestAppWithClock(clock, { ...domainEnv(dns.address), OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  it('sets up the first operator with the admin token, then signs in and out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/console`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await consoleShot(page, 'sign-in');
    await page.getByRole('link', { name: 'Create the first operator' }).click();
    await page.getByLabel('Admin token').fill('wrong-token-wrong-token');
    await page.getByLabel('Your email').fill(OPERATOR.email);
    await page.getByLabel(/Password/).fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Create operator and sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not the admin token');
    await consoleShot(page, 'setup');
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByLabel(/Password/).fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Create operator and sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await expect(page.getByText('No workspaces yet').count()).resolves.toBe(1);
    await consoleShot(page, 'workspaces-empty');

    const cookie = (await context.cookies()).find((c) => c.name === 'cd_console')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/console', secure: false });
    // The session cookie is no credential for the API.
    await request(t.server).get('/v1/domains').set('cookie', `cd_console=${cookie.value}`).expect(401);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByText('You are signed out.').waitFor();
    await page.goto(`${base}/console/workspaces`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('creates a workspace and API keys (shown once), revokes one, and the key works on /v1 until then', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInWithPassword(context, base, OPERATOR);
    await page.getByLabel('Name').fill('Acme Inc.');
    await page.getByLabel(/Card on file/).fill('pm_card_visa');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    acme = page.url().split('/')[5];
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^sk_/);
    await consoleShot(page, 'keys-created');
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${key}`).expect(200);
    // Revoking asks first, saying when the key was last used.
    await page.getByRole('link', { name: 'Revoke…' }).click();
    await expect(page.locator('main').textContent()).resolves.toContain("It is this workspace's only active key.");
    await consoleShot(page, 'key-revoke-confirm');
    await page.getByRole('button', { name: /^Revoke key ending/ }).click();
    await page.getByText('The key is revoked').waitFor();
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${key}`).expect(401);
    await consoleShot(page, 'keys');
    acme = (await t.db.query<{ id: string }>("select id from workspaces where name = 'Acme Inc.'"))[0].id;
    await page.goto(`${base}/console/w/${acme}`);
    await page.getByRole('heading', { name: 'Free tier usage' }).waitFor();
    await consoleShot(page, 'overview');
    await context.close();
  });

  it('connects a domain, shows why it is pending, checks it, edits it, makes a connect link and deletes another', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInWithPassword(context, base, OPERATOR);
    await page.goto(`${base}/console/w/${acme}/domains`);
    await expect(page.getByText('No domains yet').count()).resolves.toBe(1);
    await consoleShot(page, 'domains-empty');

    // Bad input comes back as the form, with what was typed and the problem under its field.
    await page.getByLabel('Hostname', { exact: true }).fill('not a hostname');
    await page.getByLabel(/Origin URL/).fill('https://origin.saas-test.net');
    await page.getByRole('button', { name: 'Connect domain' }).click();
    await page.locator('#new-hostname-problem').waitFor();
    await expect(page.getByLabel('Hostname', { exact: true }).inputValue()).resolves.toBe('not a hostname');
    await consoleShot(page, 'error');

    for (const hostname of ['pending.customer-a.com', 'gone.customer-a.com']) {
      await page.getByLabel('Hostname', { exact: true }).fill(hostname);
      await page.getByLabel(/Origin URL/).fill('https://origin.saas-test.net');
      await page.getByRole('button', { name: 'Connect domain' }).click();
      await page.getByText('Domain connected.').waitFor();
      await page.getByRole('link', { name: '← Domains' }).click();
    }
    // Filters: a hostname substring and a status, server-side.
    await page.getByLabel('Hostname contains').fill('ending.cust');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await page.getByLabel('Status').selectOption('verified');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No domain matches these filters').waitFor();
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await consoleShot(page, 'domains');

    await page.getByRole('link', { name: 'pending.customer-a.com' }).click();
    const records = page.locator('section', { has: page.getByRole('heading', { name: 'DNS records' }) });
    await expect(records.textContent()).resolves.toContain(EDGE_TARGET);
    await expect(records.textContent()).resolves.toContain('nothing');
    await consoleShot(page, 'domain-pending');

    // The customer adds the record; "Check now" shows the new state and the observed record.
    dns.setRecords('pending.customer-a.com', [{ type: 'CNAME', data: EDGE_TARGET }]);
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText('Checked now').waitFor();
    await expect(records.locator('tbody').textContent()).resolves.not.toContain('nothing');

    await page.getByLabel('Origin URL').fill('https://origin.saas-test.net/app');
    await page.getByLabel('Keep the Host header when proxying').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await expect(page.getByLabel('Origin URL').inputValue()).resolves.toBe('https://origin.saas-test.net/app');
    await expect(page.getByLabel('Keep the Host header when proxying').isChecked()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Create connect link' }).click();
    const link = (await page.locator('#connect-link').textContent())!.trim();
    expect(link).toMatch(/\/connect\?token=cs_/);
    // No PUBLIC_BASE_URL here: the console says the link uses the address it was reached at.
    await expect(page.locator('.secret').textContent()).resolves.toContain('PUBLIC_BASE_URL is not set');
    await expect(page.locator('.timeline').textContent()).resolves.toContain('domain.created');
    await consoleShot(page, 'domain-detail');
    // The link opens the end customer's page: the widget for this domain, from the SaaS by name, nothing
    // for developers (no embed code, no API key sample).
    for (const [device, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const widget = await browser.newPage({ viewport });
      await widget.goto(link.replace(/^https?:\/\/[^/]+/, base));
      await widget.waitForFunction("!!document.querySelector('#connect')?.shadowRoot?.querySelector('table')");
      await expect(widget.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Connect your domain to Acme Inc.',
      );
      const text = (await widget.locator('body').textContent()) ?? '';
      expect(text).not.toMatch(/Embed it|sk_live|connect-session|curl/);
      await widget.screenshot({ path: join(CONSOLE_ARTIFACTS, `connect-link-page-${device}.png`), fullPage: true });
      await widget.close();
    }
    const stale = await browser.newPage();
    await stale.goto(`${base}/connect?token=cs_not.a.token`);
    await expect(stale.getByRole('alert').textContent()).resolves.toContain('This link is not valid or has expired');
    await stale.close();

    await page.goto(`${base}/console/w/${acme}/domains`);
    await page.getByRole('link', { name: 'gone.customer-a.com' }).click();
    await page.getByRole('link', { name: 'Delete…' }).click();
    await consoleShot(page, 'domain-delete');
    await page.getByRole('button', { name: 'Delete gone.customer-a.com' }).click();
    await page.getByText('Domain deleted.').waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await context.close();
  });

  it('adds a webhook endpoint (secret once), shows a dead letter with its attempts and replays it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInWithPassword(context, base, OPERATOR);
    await page.goto(`${base}/console/w/${acme}/webhooks`);
    await page.getByText('No webhook endpoints').waitFor();
    await consoleShot(page, 'webhooks-empty');
    receiver.answer = () => ({ status: 503, body: 'maintenance' });
    await page.getByLabel('URL').fill(`${receiver.url}/hook`);
    await page.getByLabel('domain.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.locator('#endpoint-secret').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(20);

    // A domain event, then the delivery fails for the whole retry window and is dead-lettered.
    await page.goto(`${base}/console/w/${acme}/domains`);
    await page.getByLabel('Hostname', { exact: true }).fill('hooked.customer-a.com');
    await page.getByLabel(/Origin URL/).fill('https://origin.saas-test.net');
    await page.getByRole('button', { name: 'Connect domain' }).click();
    await page.getByText('Domain connected.').waitFor();
    const worker = t.app.get(DeliveryWorker);
    const status = async () =>
      (await t.db.query<{ status: string }>("select status from webhook_deliveries where event_id like 'evt%'"))[0]
        ?.status;
    // Until then, each check runs the worker and moves the clock a day on, to the next retry.
    await eventually(
      async () => {
        const seen = await status();
        if (seen !== 'dead_lettered') {
          await worker.runOnce();
          clock.advance(24 * 3600 * 1000);
        }
        return seen;
      },
      (seen) => seen === 'dead_lettered',
      { timeoutMs: 120_000, everyMs: 50, what: 'the delivery to be dead-lettered' },
    );
    expect(await status()).toBe('dead_lettered');
    expect(receiver.received('/hook').length).toBeGreaterThan(5);

    await page.goto(`${base}/console/w/${acme}/webhooks`);
    await page.getByRole('link', { name: `${receiver.url}/hook` }).click();
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await expect(page.locator('tbody').textContent()).resolves.toContain('HTTP 503');
    await consoleShot(page, 'webhook-dead-letters');
    receiver.answer = () => ({ status: 200 });
    // Counted before the replay: the background worker may deliver it before the page has reloaded.
    const before = receiver.received('/hook').length;
    await page.getByLabel('Select every delivery').check();
    await page.getByRole('button', { name: 'Replay selected' }).click();
    await page.getByText('Replay queued').waitFor();
    await eventually(
      async () => {
        const seen = await status();
        if (seen !== 'delivered') await worker.runOnce();
        return seen;
      },
      (seen) => seen === 'delivered',
      { timeoutMs: 30_000, everyMs: 50, what: 'the replayed delivery' },
    );
    expect(await status()).toBe('delivered');
    expect(receiver.received('/hook').length).toBeGreaterThan(before);
    await page.reload();
    await expect(page.locator('tbody').textContent()).resolves.toContain('delivered');
    await consoleShot(page, 'webhook-endpoint');

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.locator('#endpoint-secret').textContent())!.trim();
    expect(rotated).not.toBe(secret);
    await page.goto(`${base}/console/w/${acme}/webhooks`);
    await consoleShot(page, 'webhooks');
    await context.close();
  });

  it('keeps an audit log of who did what, filterable', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInWithPassword(context, base, OPERATOR);
    await page.goto(`${base}/console/audit`);
    for (const action of ['api_key.revoked', 'domain.updated', 'domain.deleted', 'event.replayed']) {
      await expect(page.locator('tbody').textContent()).resolves.toContain(action);
    }
    await page.getByLabel('Action').selectOption('api_key.revoked');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('tbody').textContent()).resolves.toContain(OPERATOR.email);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await consoleShot(page, 'audit');

    // The cluster view (operators): the standalone node owns every shard.
    await page.getByRole('link', { name: 'Cluster' }).click();
    await page.getByText('every shard has an owner').waitFor();
    await consoleShot(page, 'cluster');
    await context.close();
  });

  it("shows a member only their workspaces, and a viewer no write buttons (every route's refusals: console-access)", async () => {
    const other = await createWorkspaceVia(t.server);
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const member = { email: 'member@example.com', password: 'member-password-1' };
    const viewer = { email: 'viewer@example.com', password: 'viewer-password-1' };
    await request(t.server)
      .post('/admin/console-users')
      .set(admin)
      .send({ ...member, workspaceId: acme, role: 'member' })
      .expect(201);
    await request(t.server)
      .post('/admin/console-users')
      .set(admin)
      .send({ ...viewer, workspaceId: acme, role: 'viewer' })
      .expect(201);
    // Bad input to the admin endpoint gets the API's error envelope.
    const bad = await request(t.server)
      .post('/admin/console-users')
      .set(admin)
      .send({ email: 'x@example.com', password: 'short' })
      .expect(400);
    expect(bad.body.error).toBe('bad_request');

    const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const asMember = await signInWithPassword(memberContext, base, member);
    await expect(asMember.locator('tbody tr').count()).resolves.toBe(1);
    const refused = await asMember.goto(`${base}/console/w/${other.workspaceId}/domains`);
    expect(refused!.status()).toBe(404);
    await asMember.getByRole('heading', { name: 'Not found' }).waitFor();
    await memberContext.close();

    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const asViewer = await signInWithPassword(viewerContext, base, viewer);
    await asViewer.goto(`${base}/console/w/${acme}/domains`);
    await expect(asViewer.getByRole('button', { name: 'Connect domain' }).count()).resolves.toBe(0);
    await consoleShot(asViewer, 'domains-viewer');
    // A write sent anyway (with a valid CSRF token) is refused by the server, not only hidden.
    const status = await asViewer.evaluate(async (ws) => {
      const doc = (globalThis as any).document;
      const token = doc.querySelector('input[name=_csrf]').value as string;
      const response = await fetch(`/console/w/${ws}/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${encodeURIComponent(token)}`,
      });
      return response.status;
    }, acme);
    expect(status).toBe(403);

    // Sign-out everywhere ends the viewer's other sessions too.
    const second = await browser.newContext();
    const again = await signInWithPassword(second, base, viewer);
    await asViewer.getByRole('button', { name: 'Sign out everywhere' }).click();
    await asViewer.getByText('You are signed out.').waitFor();
    await again.goto(`${base}/console/workspaces`);
    await again.getByRole('heading', { name: 'Sign in' }).waitFor();
    await second.close();
    await viewerContext.close();
  });

  it('refuses a form without the CSRF token and throttles password guessing', async () => {
    const context = await browser.newContext();
    const page = await signInWithPassword(context, base, OPERATOR);
    const cookie = (await context.cookies()).find((c) => c.name === 'cd_console')!;
    // Another site posting with the user's cookie but without the token.
    const forged = await request(t.server)
      .post('/console/workspaces')
      .set('cookie', `cd_console=${cookie.value}`)
      .type('form')
      .send({ name: 'Forged' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('CSRF check failed');
    await page.close();
    await context.close();

    const guesser = await browser.newContext();
    const guess = await guesser.newPage();
    for (let i = 0; i < 5; i++) {
      await guess.goto(`${base}/console/sign-in`);
      await guess.getByLabel('Email').fill(OPERATOR.email);
      await guess.getByLabel('Password').fill(`wrong-password-${i}`);
      await guess.getByRole('button', { name: 'Sign in', exact: true }).click();
      await guess.getByRole('alert').waitFor();
    }
    await guess.getByLabel('Password').fill(OPERATOR.password);
    await guess.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(guess.getByRole('alert').textContent()).resolves.toContain('Too many failed sign-ins');
    await guesser.close();
    await t.db.query('delete from console_signin_failures');
  });
});

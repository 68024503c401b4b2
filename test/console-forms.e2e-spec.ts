import {
  DnsServer,
  TEST_ADMIN_TOKEN,
  TestApp,
  createWorkspaceVia,
  domainEnv,
  eventually,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { consoleShot, createConsoleUser, launchChromium, signInWithPassword } from './support/console-browser';

jest.setTimeout(300_000);

const VIEWPORTS = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const ORIGIN = 'http://93.184.216.34';

/** Forms, passwords, keys and create-once pages, in headless Chromium at desktop and phone width. */
describe('console forms are not dead ends', () => {
  let t: TestApp;
  let dns: DnsServer;
  let browser: Browser;
  let base: string;
  let ws: string;
  let key: string;
  const operator = { email: 'forms-operator@example.com', password: 'operator-password-1' };
  const admin = () => ({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    ({ apiKey: key, workspaceId: ws } = await createWorkspaceVia(t.server));
    await createConsoleUser(t, { ...operator, operator: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await dns?.close();
  });

  async function pageAt(viewport: { width: number; height: number }, who = operator): Promise<Page> {
    return signInWithPassword(await browser.newContext({ viewport }), base, who);
  }
  const mainText = async (page: Page) => (await page.locator('main').textContent()) ?? '';
  const auditCount = async (action: string, target?: string) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          'select count(*) as n from console_audit where action = $1 and ($2::text is null or target = $2)',
          [action, target ?? null],
        )
      )[0].n,
    );

  it('shows a refused domain under its field, keeps what was typed, and links a duplicate to the domain', async () => {
    const existing = (
      await request(t.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${key}`)
        .send({ hostname: 'taken.forms-test.com', originUrl: ORIGIN })
        .expect(201)
    ).body.domain as { id: string };
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/domains`);

      await page.getByLabel('Hostname', { exact: true }).fill('https://shop.forms-test.com');
      await page.getByLabel(/^Origin URL/).fill(ORIGIN);
      await page.getByRole('button', { name: 'Connect domain' }).click();
      await page.locator('#new-hostname-problem').waitFor();
      expect(await page.getByLabel('Hostname', { exact: true }).inputValue()).toBe('https://shop.forms-test.com');
      expect(await page.getByLabel(/^Origin URL/).inputValue()).toBe(ORIGIN);
      expect(await page.getByLabel('Hostname', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await mainText(page)).not.toContain('That did not work');
      await consoleShot(page, `form-error-hostname-${device}`);

      await page.getByLabel('Hostname', { exact: true }).fill(`blocked-${device}.forms-test.com`);
      await page.getByLabel(/^Origin URL/).fill('http://10.0.0.1');
      await page.getByRole('button', { name: 'Connect domain' }).click();
      await page.locator('#new-originUrl-problem').waitFor();
      expect(await page.locator('#new-originUrl-problem').textContent()).toMatch(/10\.0\.0\.1/);
      expect(await page.getByLabel('Hostname', { exact: true }).inputValue()).toBe(`blocked-${device}.forms-test.com`);
      await consoleShot(page, `form-error-origin-${device}`);

      await page.getByLabel('Hostname', { exact: true }).fill('taken.forms-test.com');
      await page.getByLabel(/^Origin URL/).fill(ORIGIN);
      await page.getByRole('button', { name: 'Connect domain' }).click();
      await page.getByRole('link', { name: 'Open taken.forms-test.com' }).waitFor();
      expect(await page.locator('[role=alert]').first().textContent()).toContain('already connected');
      await consoleShot(page, `form-error-duplicate-${device}`);
      await page.getByRole('link', { name: 'Open taken.forms-test.com' }).click();
      await page.waitForURL(`**/domains/${existing.id}`);
      await page.getByRole('heading', { name: 'taken.forms-test.com' }).waitFor();

      // The domain's settings: a blocked origin comes back under its field, as typed.
      await page.getByLabel('Origin URL', { exact: true }).fill('http://192.168.1.10');
      await page.getByLabel('Keep the Host header when proxying').check();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.locator('#s-originUrl-problem').waitFor();
      expect(await page.getByLabel('Origin URL', { exact: true }).inputValue()).toBe('http://192.168.1.10');
      expect(await page.getByLabel('Keep the Host header when proxying').isChecked()).toBe(true);
      await consoleShot(page, `form-error-settings-${device}`);
      await page.context().close();
    }
  });

  it('shows the problem of a default "New user" form under its field, keeping the email', async () => {
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/users`);
      await page.getByLabel('Email').fill(`new-${device}@example.com`);
      await page.getByLabel(/^Name/).fill('New Person');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.locator('#u-workspaceId-problem').waitFor();
      expect(await page.locator('#u-workspaceId-problem').textContent()).toContain('choose a workspace');
      expect(await page.getByLabel('Email').inputValue()).toBe(`new-${device}@example.com`);
      expect(await page.getByLabel(/^Name/).inputValue()).toBe('New Person');
      expect(await mainText(page)).not.toContain('That did not work');
      await consoleShot(page, `form-error-new-user-${device}`);
      await page.context().close();
    }
  });

  it('shows a refused new workspace under its fields, keeping what was typed', async () => {
    const workspaces = async () =>
      Number((await t.db.query<{ n: string }>('select count(*) as n from workspaces'))[0].n);
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      const before = { workspaces: await workspaces(), audited: await auditCount('workspace.created') };
      await page.goto(`${base}/console/workspaces`);
      // Spaces pass the browser's `required`; the card is no payment method id: both under their fields.
      await page.getByLabel('Name').fill('   ');
      await page.getByLabel(/^Card on file/).fill('visa-4242');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      await page.locator('#ws-paymentMethod-problem').waitFor();
      expect(await page.locator('#ws-name-problem').textContent()).toMatch(/empty/i);
      expect(await page.locator('#ws-paymentMethod-problem').textContent()).toContain('such as pm_card_visa');
      expect(await page.getByLabel(/^Card on file/).inputValue()).toBe('visa-4242');
      expect(await page.getByLabel(/^Card on file/).getAttribute('aria-invalid')).toBe('true');
      expect(await mainText(page)).not.toContain('That did not work');
      await consoleShot(page, `form-error-new-workspace-${device}`);
      // A name past 200 characters (the browser's maxlength removed), the card kept as typed.
      await page.locator('#ws-name').evaluate((input) => input.removeAttribute('maxlength'));
      await page.getByLabel('Name').fill(`Acme ${'x'.repeat(200)}`);
      await page.getByLabel(/^Card on file/).fill('pm_card_visa');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      await page.locator('#ws-name-problem').waitFor();
      expect(await page.getByLabel('Name').inputValue()).toBe(`Acme ${'x'.repeat(200)}`);
      expect(await page.getByLabel(/^Card on file/).inputValue()).toBe('pm_card_visa');
      expect(await workspaces()).toBe(before.workspaces);
      expect(await auditCount('workspace.created')).toBe(before.audited);
      await page.context().close();
    }
  });

  it("shows an endpoint's refused settings under their fields, keeping what was typed", async () => {
    const endpoint = (
      await request(t.server)
        .post('/v1/webhook-endpoints')
        .set('authorization', `Bearer ${key}`)
        .send({ url: `${ORIGIN}/hooks/settings`, events: ['domain.verified'] })
        .expect(201)
    ).body.endpoint as { id: string };
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      // A URL deliveries cannot POST to, with the events and Enabled as changed.
      const updates = await auditCount('webhook_endpoint.updated');
      await page.goto(`${base}/console/w/${ws}/webhooks/${endpoint.id}`);
      await page.getByLabel('URL').fill('ftp://hooks.example.com/settings');
      await page.getByLabel('domain.created').check();
      await page.getByLabel('domain.verified').uncheck();
      await page.getByLabel('Enabled').uncheck();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.locator('#ep-url-problem').waitFor();
      expect(await page.getByLabel('URL').inputValue()).toBe('ftp://hooks.example.com/settings');
      expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('domain.created').isChecked()).toBe(true);
      expect(await page.getByLabel('domain.verified').isChecked()).toBe(false);
      expect(await page.getByLabel('Enabled').isChecked()).toBe(false);
      expect(await mainText(page)).not.toContain('That did not work');
      await consoleShot(page, `form-error-webhook-settings-${device}`);
      const saved = await request(t.server)
        .get(`/v1/webhook-endpoints/${endpoint.id}`)
        .set('authorization', `Bearer ${key}`)
        .expect(200);
      expect(saved.body.endpoint).toMatchObject({
        url: `${ORIGIN}/hooks/settings`,
        events: ['domain.verified'],
        enabled: true,
      });
      expect(await auditCount('webhook_endpoint.updated')).toBe(updates);
      await page.context().close();
    }
  });

  it('lets a user change their own password (current first) and an operator reset another user, signing them out', async () => {
    const alice = await createConsoleUser(t, {
      email: 'alice-forms@example.com',
      password: 'alice-password-1',
      workspaceId: ws,
      role: 'member',
    });
    const aliceId = (
      await t.db.query<{ id: string }>('select id from console_users where email = $1', [alice.email])
    )[0].id;
    let password = alice.password;
    for (const [device, viewport] of VIEWPORTS) {
      // Another browser of Alice's, signed in before the change: it is signed out by it.
      const elsewhere = await pageAt(viewport, { email: alice.email, password });
      const page = await pageAt(viewport, { email: alice.email, password });
      // Your account is one click away: in the header, or in the menu on a phone.
      if (device === 'phone') {
        await page.getByText('Menu', { exact: true }).click();
        await consoleShot(page, 'menu-your-account-phone');
      }
      await page.getByRole('link', { name: 'Your account' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      await page.getByLabel('Current password').fill('not-my-password');
      await page.getByLabel(/^New password/).fill(`changed-${device}-password`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.locator('#pw-currentPassword-problem').waitFor();
      expect(await page.locator('#pw-currentPassword-problem').textContent()).toContain('not your current password');
      await consoleShot(page, `account-password-wrong-${device}`);

      await page.getByLabel('Current password').fill(password);
      await page.getByLabel(/^New password/).fill('short');
      await page.locator('#pw-new').evaluate((input) => input.removeAttribute('minlength'));
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.locator('#pw-password-problem').waitFor();
      expect(await page.locator('#pw-password-problem').textContent()).toContain('at least 10 characters');

      await page.getByLabel('Current password').fill(password);
      await page.getByLabel(/^New password/).fill(`changed-${device}-password`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Your password is changed.').waitFor();
      password = `changed-${device}-password`;
      await consoleShot(page, `account-password-changed-${device}`);
      // This browser stays signed in; the other one is out.
      await page.goto(`${base}/console/workspaces`);
      await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
      await elsewhere.goto(`${base}/console/workspaces`);
      await elsewhere.getByRole('heading', { name: 'Sign in' }).waitFor();
      await elsewhere.context().close();

      // An operator resets Alice's password: a one-time password, shown once; Alice's sessions end.
      const op = await pageAt(viewport);
      await op.goto(`${base}/console/users/${aliceId}`);
      await op.getByRole('button', { name: 'Reset password' }).click();
      const oneTime = ((await op.locator('#new-password').textContent()) ?? '').trim();
      expect(oneTime).toMatch(/^[A-Za-z0-9]{16,}$/);
      await consoleShot(op, `user-password-reset-${device}`);
      await op.reload();
      await op.getByRole('heading', { name: alice.email }).waitFor();
      expect(await op.locator('#new-password').count()).toBe(0);
      await op.context().close();
      await page.goto(`${base}/console/workspaces`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.context().close();
      password = oneTime;
      await (await pageAt(viewport, { email: alice.email, password })).context().close();
    }
    expect(await auditCount('user.password_changed', alice.email)).toBe(2);
    expect(await auditCount('user.password_reset', alice.email)).toBe(2);

    // The admin API (what `npm run admin -- set-password` / `reset-password` call): set, then generate.
    const set = await request(t.server)
      .post('/admin/console-users/password')
      .set(admin())
      .send({ email: alice.email, password: 'set-by-admin-token-1' })
      .expect(200);
    expect(set.body).toEqual({ user: { id: aliceId, email: alice.email }, sessionsEnded: 1 });
    const reset = await request(t.server)
      .post('/admin/console-users/password')
      .set(admin())
      .send({ email: alice.email })
      .expect(200);
    expect(reset.body.oneTimePassword).toMatch(/^[A-Za-z0-9]{16,}$/);
    await request(t.server)
      .post('/admin/console-users/password')
      .set(admin())
      .send({ email: alice.email, password: 'short' })
      .expect(400);
    await request(t.server)
      .post('/admin/console-users/password')
      .set(admin())
      .send({ email: 'nobody@example.com' })
      .expect(404);
    expect(await auditCount('user.password_reset', alice.email)).toBe(4);
    await (
      await pageAt(VIEWPORTS[0][1], { email: alice.email, password: reset.body.oneTimePassword })
    )
      .context()
      .close();
  });

  it('names API keys, shows last use beside them, and a reload after creating neither makes a second key nor shows it again', async () => {
    const keys = async () =>
      Number(
        (await t.db.query<{ n: string }>('select count(*) as n from api_keys where workspace_id = $1', [ws]))[0].n,
      );
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/keys`);
      const before = await keys();
      await page.getByLabel(/^Name/).fill(`production ${device}`);
      await page.getByRole('button', { name: 'Create API key' }).click();
      const shown = ((await page.locator('#new-key').textContent()) ?? '').trim();
      expect(shown).toMatch(/^sk_live_/);
      expect(await page.locator('.secret').textContent()).toContain(`production ${device}`);
      await request(t.server).get('/v1/domains').set('authorization', `Bearer ${shown}`).expect(200);
      await consoleShot(page, `key-created-named-${device}`);
      await page.reload();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      expect(await page.locator('#new-key').count()).toBe(0);
      expect(await keys()).toBe(before + 1);
      const row = (await page.locator('tbody tr', { hasText: `production ${device}` }).textContent()) ?? '';
      expect(row).toMatch(/Never|\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      await consoleShot(page, `keys-named-${device}`);
      await page.context().close();
    }
    // The admin API takes an optional name too (`npm run admin -- create-key --name`).
    const issued = await request(t.server)
      .post(`/admin/workspaces/${ws}/api-keys`)
      .set(admin())
      .send({ name: 'ci' })
      .expect(201);
    const listed = await request(t.server).get(`/admin/workspaces/${ws}`).set(admin()).expect(200);
    expect(listed.body.apiKeys.find((k: { id: string }) => k.id === issued.body.apiKeyId).name).toBe('ci');

    // The audit log names a change made with a named key by that name (and its id).
    await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${issued.body.apiKey}`)
      .send({ hostname: 'named-key.forms-test.com', originUrl: ORIGIN })
      .expect(201);
    const page = await pageAt(VIEWPORTS[0][1]);
    const actor = `API key ci (${issued.body.apiKeyId})`;
    await eventually(
      async () => {
        await page.goto(`${base}/console/audit`);
        return (
          (await page.locator('tbody tr', { hasText: 'named-key.forms-test.com' }).first().textContent()) ?? ''
        ).replace(/\s+/g, ' ');
      },
      (row) => row.includes(actor),
      { timeoutMs: 10_000, what: 'the audit entry naming the key' },
    );
    await page.context().close();
  });

  it('shows a webhook signing secret once: a reload after adding or rotating neither repeats it nor the change', async () => {
    const endpoints = async () =>
      Number(
        (
          await t.db.query<{ n: string }>('select count(*) as n from webhook_endpoints where workspace_id = $1', [ws])
        )[0].n,
      );
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/webhooks`);
      const before = await endpoints();
      // A URL deliveries cannot POST to comes back under its field, as typed, the events still ticked.
      await page.getByLabel('URL').fill('ftp://hooks.example.com/in');
      await page.getByLabel('domain.created').check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.locator('#ep-url-problem').waitFor();
      expect(await page.getByLabel('URL').inputValue()).toBe('ftp://hooks.example.com/in');
      expect(await page.getByLabel('domain.created').isChecked()).toBe(true);
      await consoleShot(page, `form-error-webhook-url-${device}`);
      await page.getByLabel('domain.created').uncheck();
      await page.getByLabel('URL').fill(`${ORIGIN}/hooks/${device}`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      expect(((await page.locator('#endpoint-secret').textContent()) ?? '').trim()).toMatch(/^whsec_/);
      await consoleShot(page, `webhook-secret-once-${device}`);
      await page.reload();
      await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
      expect(await page.locator('#endpoint-secret').count()).toBe(0);
      expect(await endpoints()).toBe(before + 1);

      const rotations = await auditCount('webhook_endpoint.secret_rotated');
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      expect(((await page.locator('#endpoint-secret').textContent()) ?? '').trim()).toMatch(/^whsec_/);
      await page.reload();
      await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
      expect(await page.locator('#endpoint-secret').count()).toBe(0);
      expect(await auditCount('webhook_endpoint.secret_rotated')).toBe(rotations + 1);
      await page.context().close();
    }
  });

  it('shows an OAuth client secret once: a reload registers no second client and shows no secret', async () => {
    const clients = async () =>
      Number(
        (await t.db.query<{ n: string }>('select count(*) as n from oauth_clients where workspace_id = $1', [ws]))[0].n,
      );
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/oauth-clients`);
      const before = await clients();
      await page.getByLabel('Name').fill(`Sync ${device}`);
      await page.getByLabel('domains:read').check();
      await page.getByRole('button', { name: 'Register client' }).click();
      expect(((await page.locator('#client-secret').textContent()) ?? '').trim().length).toBeGreaterThan(20);
      await consoleShot(page, `oauth-client-secret-once-${device}`);
      await page.reload();
      await page.getByRole('button', { name: 'Register client' }).waitFor();
      expect(await page.locator('#client-secret').count()).toBe(0);
      expect(await clients()).toBe(before + 1);
      await page.context().close();
    }
  });

  it("shows a domain's connect link once: a reload mints no second link", async () => {
    const domain = (
      await request(t.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${key}`)
        .send({ hostname: 'linked.forms-test.com', originUrl: ORIGIN })
        .expect(201)
    ).body.domain as { id: string };
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/domains/${domain.id}`);
      const links = await auditCount('domain.connect_link_created', domain.id);
      await page.getByRole('button', { name: /connect link/i }).click();
      expect((await page.locator('#connect-link').textContent()) ?? '').toContain('/connect?token=');
      expect(new URL(page.url()).searchParams.get('shown')).toBeTruthy();
      await consoleShot(page, `connect-link-once-${device}`);
      await page.reload();
      await page.getByRole('heading', { name: 'linked.forms-test.com' }).waitFor();
      expect(await page.locator('#connect-link').count()).toBe(0);
      expect(await auditCount('domain.connect_link_created', domain.id)).toBe(links + 1);
      await page.context().close();
    }
  });

  it('pages the users list like the other lists', async () => {
    for (let i = 0; i < 26; i++) {
      await createConsoleUser(t, {
        email: `paged-${String(i).padStart(2, '0')}@example.com`,
        password: 'paged-password-1',
        workspaceId: ws,
      });
    }
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/users`);
      expect(await page.locator('tbody tr').count()).toBe(25);
      const first = (await page.locator('tbody').textContent()) ?? '';
      await consoleShot(page, `users-paged-${device}`);
      await page.getByRole('link', { name: 'Next page →' }).click();
      await page.getByRole('link', { name: 'First page' }).waitFor();
      const second = (await page.locator('tbody').textContent()) ?? '';
      const emails = (text: string): string[] => text.match(/[\w.-]+@example\.com/g) ?? [];
      expect(emails(second).filter((e) => emails(first).includes(e))).toEqual([]);
      expect(emails(second).length).toBeGreaterThan(0);
      await consoleShot(page, `users-page-2-${device}`);
      await page.context().close();
    }
  });

  it('says a form posted after the session ended was not saved, and returns to its page after sign-in', async () => {
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/keys`);
      await t.db.query('delete from console_sessions where user_id = (select id from console_users where email = $1)', [
        operator.email,
      ]);
      await page.getByLabel(/^Name/).fill('after the session');
      await page.getByRole('button', { name: 'Create API key' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await mainText(page)).toContain('Your session ended, so the form you sent was not saved');
      await consoleShot(page, `session-ended-${device}`);
      await page.getByLabel('Email').fill(operator.email);
      await page.getByLabel('Password').fill(operator.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/console/w/${ws}/keys`);

      // A page opened after the session ended says so too (nothing was sent, so nothing was lost).
      await t.db.query('delete from console_sessions where user_id = (select id from console_users where email = $1)', [
        operator.email,
      ]);
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await mainText(page)).toContain('Your session ended. Sign in again to return to the page you were on.');
      expect(new URL(page.url()).searchParams.get('next')).toBe(`/console/w/${ws}/keys`);
      await page.context().close();
    }
    const named = await t.db.query<{ one: number }>("select 1 as one from api_keys where name = 'after the session'");
    expect(named).toHaveLength(0);
  });
});

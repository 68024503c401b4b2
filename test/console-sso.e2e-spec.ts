import {
  CHROMIUM_ARGS,
  CONSOLE_ARTIFACTS,
  OidcIssuer,
  TEST_ADMIN_TOKEN,
  TestApp,
  createWorkspaceVia,
  eventually,
  freePort,
  seriousViolations,
  signInWithPassword,
  startOidcIssuer,
  startTestApp,
} from '@test/support';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';
import request from 'supertest';

const OPERATOR = { email: 'ops@example.com', password: 'operator-password-1' };
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

async function shot(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(CONSOLE_ARTIFACTS, `console-${name}.png`), fullPage: true });
}

/**
 * From the console's sign-in page through the issuer's own login (any password) and consent
 * pages; the issuer skips either when it remembers the browser or the consent.
 */
async function signInWithSso(page: Page, base: string, login: string): Promise<void> {
  await page.goto(`${base}/console/sign-in`);
  await page.getByRole('link', { name: 'Sign in with Test SSO' }).click();
  const loginField = page.getByPlaceholder('Enter any login');
  const consent = page.getByRole('button', { name: 'Continue' });
  const inConsole = page.locator('header.top .brand');
  for (;;) {
    await loginField.or(consent).or(inConsole).first().waitFor();
    if (await inConsole.count()) return;
    if (await loginField.count()) {
      await loginField.fill(login);
      await page.getByPlaceholder('and password').fill('whatever-the-issuer-checks');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await loginField.waitFor({ state: 'detached' });
    } else {
      await consent.click();
      await consent.waitFor({ state: 'detached' });
    }
  }
}

// Whole journeys through two servers in a real browser: slow on a loaded machine.
jest.setTimeout(300_000);

describe('console single sign-on (OpenID Connect) against a real issuer, in headless Chromium', () => {
  let t: TestApp;
  let issuer: OidcIssuer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    mkdirSync(CONSOLE_ARTIFACTS, { recursive: true });
    issuer = await startOidcIssuer();
    t = await startTestApp({
      env: {
        CONSOLE_OIDC_ISSUER: issuer.issuer,
        CONSOLE_OIDC_CLIENT_ID: issuer.clientId,
        CONSOLE_OIDC_CLIENT_SECRET: issuer.clientSecret,
        CONSOLE_OIDC_NAME: 'Test SSO',
        CONSOLE_OIDC_ALLOWED_DOMAINS: 'corp.example.com',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    await request(t.server)
      .post('/admin/console-users')
      .set(admin)
      .send({ ...OPERATOR, operator: true })
      .expect(201);
    await request(t.server)
      .post('/admin/console-users')
      .set(admin)
      .send({ email: 'Ada@Example.com', password: 'ada-password-12', operator: true })
      .expect(201);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await issuer?.stop();
  });

  const audit = (action: string) =>
    t.db.query<{ actor: string; target: string; detail: Record<string, unknown> }>(
      'select actor, target, detail from console_audit where action = $1 order by created_at',
      [action],
    );

  it('signs in through the issuer as the console user with that verified email, links it, then matches by subject', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}/console`);
    await page.getByRole('link', { name: 'Sign in with Test SSO' }).waitFor();
    await shot(page, 'sso-sign-in');

    await signInWithSso(page, base, 'ada');
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await expect(page.locator('header').textContent()).resolves.toContain('ada@example.com');
    await shot(page, 'sso-signed-in');
    const [linked] = await t.db.query<{ oidc_subject: string; last_sign_in_at: Date }>(
      `select oidc_subject, last_sign_in_at from console_users where email = 'ada@example.com'`,
    );
    expect(linked.oidc_subject).toBe(`${issuer.issuer}#ada`);
    expect(linked.last_sign_in_at).not.toBeNull();
    expect(await audit('user.sso_linked')).toEqual([
      expect.objectContaining({ actor: 'ada@example.com', detail: { issuer: issuer.issuer, subject: 'ada' } }),
    ]);

    // An SSO session is a console session: never a credential on /v1.
    const cookie = (await context.cookies()).find((c) => c.name === 'cd_console')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/console' });
    await request(t.server).get('/v1/domains').set('cookie', `cd_console=${cookie.value}`).expect(401);
    await request(t.server).get('/v1/workspace').set('authorization', `Bearer ${cookie.value}`).expect(401);
    // The flow cookie served its one callback.
    expect((await context.cookies()).some((c) => c.name === 'cd_console_sso')).toBe(false);

    // Signed out, the next SSO sign-in matches by (issuer, subject): the email no longer decides.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await t.db.query(`update console_users set email = 'ada.renamed@example.com' where email = 'ada@example.com'`);
    await signInWithSso(page, base, 'ada');
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await expect(page.locator('header').textContent()).resolves.toContain('ada.renamed@example.com');
    const signIns = await audit('user.signed_in');
    expect(signIns.map((e) => [e.actor, e.detail.method, e.detail.subject])).toEqual([
      ['ada@example.com', 'sso', 'ada'],
      ['ada.renamed@example.com', 'sso', 'ada'],
    ]);
    await context.close();
  });

  it('refuses an identity without a console user, and one whose email is not verified, on a clear page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signInWithSso(page, base, 'mallory');
    await page.getByRole('heading', { name: 'No console access' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'No console user has the email mallory@example.com',
    );
    await shot(page, 'sso-refused');
    expect((await context.cookies()).some((c) => c.name === 'cd_console')).toBe(false);

    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The issuer remembers mallory: sign out there by starting over in a fresh context.
    const other = await browser.newContext();
    const second = await other.newPage();
    second.setDefaultTimeout(20_000);
    await signInWithSso(second, base, 'unverified');
    await second.getByRole('heading', { name: 'No console access' }).waitFor();
    await expect(second.getByRole('alert').textContent()).resolves.toContain('has not verified the email');
    expect((await audit('user.sso_refused')).map((e) => [e.actor, e.detail.reason])).toEqual([
      ['mallory@example.com', 'unknown_user'],
      ['ops@example.com', 'no_verified_email'],
    ]);
    // The unverified ops@example.com identity did not get linked to the operator of that email.
    const [ops] = await t.db.query(`select oidc_subject from console_users where email = 'ops@example.com'`);
    expect(ops.oidc_subject).toBeNull();
    await other.close();
    await context.close();
  });

  it('creates a member without workspaces for a verified email of an allowed domain', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signInWithSso(page, base, 'grace');
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await expect(page.getByText('No workspaces yet').count()).resolves.toBe(1);
    const [grace] = await t.db.query(
      `select operator, oidc_subject, password_hash from console_users where email = 'grace@corp.example.com'`,
    );
    expect(grace).toEqual({ operator: false, oidc_subject: `${issuer.issuer}#grace`, password_hash: null });
    expect((await audit('user.created')).at(-1)).toMatchObject({
      actor: 'grace@corp.example.com',
      detail: { via: 'sso', subject: 'grace' },
    });
    await context.close();
  });

  it('shows a cancelled sign-in at the issuer as a page, not an error', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}/console/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Test SSO' }).click();
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await page.getByRole('heading', { name: 'Sign-in cancelled' }).waitFor();
    await shot(page, 'sso-cancelled');
    expect((await audit('user.sso_refused')).at(-1)?.detail).toMatchObject({ reason: 'access_denied' });
    await context.close();
  });

  it('refuses a callback whose state was altered, or that no sign-in in this browser started', async () => {
    const started = await request(t.server).get('/console/sso/start?next=/console/users').expect(303);
    const location = new URL(started.headers.location);
    expect(location.origin).toBe(issuer.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(`${base}/console/sso/callback`);
    const state = location.searchParams.get('state')!;
    const flow = ([] as string[]).concat(started.headers['set-cookie']).find((c) => c.startsWith('cd_console_sso='))!;
    expect(flow).toMatch(/HttpOnly; SameSite=Lax; Max-Age=600/);
    const cookie = flow.split(';')[0];

    const tampered = await request(t.server)
      .get(`/console/sso/callback?code=abc&state=${state}x`)
      .set('cookie', cookie)
      .expect(400);
    expect(tampered.headers['content-type']).toContain('text/html');
    expect(tampered.text).toContain('its state is missing, expired or altered');
    const noFlow = await request(t.server).get(`/console/sso/callback?code=abc&state=${state}`).expect(400);
    expect(noFlow.text).toContain('This sign-in cannot be completed');
    // A forged flow cookie does not open.
    await request(t.server)
      .get(`/console/sso/callback?code=abc&state=${state}`)
      .set('cookie', `cd_console_sso=v1.${'A'.repeat(16)}.${'B'.repeat(22)}.${'C'.repeat(40)}`)
      .expect(400);
    // The right state with a code the issuer never issued: refused by the token exchange, not a 500.
    const badCode = await request(t.server)
      .get(`/console/sso/callback?code=not-a-code&state=${state}&iss=${encodeURIComponent(issuer.issuer)}`)
      .set('cookie', cookie)
      .expect(401);
    expect(badCode.text).toContain('Sign-in failed');
  });

  it('refuses a disabled user over single sign-on too', async () => {
    const [ada] = await t.db.query(`select id from console_users where oidc_subject = $1`, [`${issuer.issuer}#ada`]);
    await t.db.query('update console_users set disabled_at = now() where id = $1', [ada.id]);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signInWithSso(page, base, 'ada');
    await page.getByRole('heading', { name: 'No console access' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('is disabled');
    await t.db.query('update console_users set disabled_at = null where id = $1', [ada.id]);
    await context.close();
  });

  it('lets an operator manage users: create (password shown once), workspaces, role, disable, sign out everywhere', async () => {
    const { workspaceId: acme } = await createWorkspaceVia(t.server);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInWithPassword(context, base, OPERATOR);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await page.getByLabel('Email').fill('new.member@example.com');
    await page.getByLabel(/^Name/).fill('New Member');
    await page.getByLabel('Workspace', { exact: true }).selectOption(acme);
    await page.getByLabel('Role in that workspace').selectOption('viewer');
    await page.getByRole('button', { name: 'Create user' }).click();
    const password = (await page.locator('#new-password').textContent())!.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{16,}$/);
    await shot(page, 'users');
    const row = page.getByRole('row', { name: /new\.member@example\.com/ });
    await expect(row.textContent()).resolves.toMatch(/viewer[\s\S]*password[\s\S]*Never[\s\S]*active/);
    // Shown once: the list again has no password on it.
    await page.goto(`${base}/console/users`);
    await expect(page.locator('#new-password').count()).resolves.toBe(0);

    // The new user signs in with it (a viewer of one workspace).
    const memberContext = await browser.newContext();
    const asMember = await signInWithPassword(memberContext, base, { email: 'new.member@example.com', password });
    // Members and viewers are refused the users page.
    const refused = await asMember.goto(`${base}/console/users`);
    expect(refused?.status()).toBe(403);
    await asMember.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await shot(asMember, 'users-refused');
    await expect(asMember.getByRole('link', { name: 'Users', exact: true }).count()).resolves.toBe(0);
    const memberCsrf = (await asMember.locator('input[name=_csrf]').first().getAttribute('value'))!;
    const memberWrite = await asMember.request.post(`${base}/console/users`, {
      form: { _csrf: memberCsrf, email: 'sneaky@example.com', operator: 'yes' },
      maxRedirects: 0,
    });
    expect(memberWrite.status()).toBe(403);

    await page.getByRole('link', { name: 'new.member@example.com' }).click();
    await page.getByRole('heading', { name: 'new.member@example.com' }).waitFor();
    await page.getByLabel(/^Role in /).selectOption('member');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The workspace membership is saved.').waitFor();
    await shot(page, 'user-detail');
    await page.getByLabel('Console role').selectOption('yes');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByText('The role is changed.').waitFor();
    await page.getByRole('button', { name: /Remove from/ }).click();
    await page.getByText('The user is no longer in that workspace.').waitFor();
    const [stored] = await t.db.query(
      `select u.operator, (select count(*)::int from console_memberships m where m.user_id = u.id) as memberships
       from console_users u where email = 'new.member@example.com'`,
    );
    expect(stored).toEqual({ operator: true, memberships: 0 });

    // Disabling ends the user's sessions at once and refuses their password.
    await page.getByRole('button', { name: 'Disable user' }).click();
    await page.getByText('The user is disabled and signed out everywhere.').waitFor();
    await asMember.goto(`${base}/console/workspaces`);
    await asMember.getByRole('heading', { name: 'Sign in' }).waitFor();
    await asMember.getByLabel('Email').fill('new.member@example.com');
    await asMember.getByLabel('Password').fill(password);
    await asMember.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(asMember.getByRole('alert').textContent()).resolves.toContain('disabled');
    await page.getByRole('button', { name: 'Enable user' }).click();
    await page.getByText('The user is enabled and can sign in again.').waitFor();
    const again = await signInWithPassword(memberContext, base, { email: 'new.member@example.com', password });
    await page.getByRole('button', { name: 'Sign out everywhere', exact: true }).last().click();
    await page.getByText('The user is signed out on every browser.').waitFor();
    await again.goto(`${base}/console/workspaces`);
    await again.getByRole('heading', { name: 'Sign in' }).waitFor();

    // Bad input and refused writes answer pages that say what is wrong, and change nothing.
    const [created] = await t.db.query(`select id from console_users where email = 'new.member@example.com'`);
    const csrfToken = (await page.locator('input[name=_csrf]').first().getAttribute('value'))!;
    const post = (path: string, form: Record<string, string>, token = csrfToken, on = page) =>
      on.request.post(`${base}${path}`, { form: { _csrf: token, ...form }, maxRedirects: 0 });
    const refusals: [Promise<{ status(): number; text(): Promise<string> }>, number, string][] = [
      [post('/console/users', { email: 'not-an-email', operator: 'yes' }), 400, 'Must be an email address'],
      [post('/console/users', { email: 'ops@example.com', operator: 'yes' }), 409, 'already exists'],
      [post('/console/users', { email: 'nobody@example.com', operator: 'no' }), 400, 'choose a workspace'],
      [
        post('/console/users', { email: 'short@example.com', operator: 'yes', password: 'short' }),
        400,
        'password must be at least 10 characters',
      ],
      [post(`/console/users/${created.id}/role`, { operator: 'maybe' }), 400, 'Choose operator or workspace roles'],
      [
        post(`/console/users/${created.id}/memberships`, { workspaceId: 'ws_missing', role: 'member' }),
        404,
        'Workspace was not found',
      ],
      [
        post(`/console/users/${created.id}/memberships`, { workspaceId: acme, role: 'owner' }),
        400,
        'role must be one of member, viewer',
      ],
      [post(`/console/users/${created.id}/memberships/${acme}/remove`, {}), 404, 'not in that workspace'],
      [post('/console/users/cu_missing/disable', {}), 404, 'Console user was not found'],
      [post(`/console/users/${created.id}/disable`, {}, 'not-the-token'), 403, 'CSRF check failed'],
    ];
    for (const [answer, status, message] of refusals) {
      const r = await answer;
      expect([r.status(), await r.text()]).toEqual([status, expect.stringContaining(message)]);
    }
    expect(
      await t.db.query(`select email from console_users where email in ('nobody@example.com', 'short@example.com')`),
    ).toEqual([]);

    // An operator cannot lock themselves out.
    const [me] = await t.db.query(`select id from console_users where email = $1`, [OPERATOR.email]);
    await page.goto(`${base}/console/users/${me.id}`);
    await expect(page.getByRole('button', { name: 'Disable user' }).count()).resolves.toBe(0);
    await page.getByLabel('Console role').selectOption('no');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByText('You cannot take away your own operator role').waitFor();

    const actions = (
      await t.db.query<{ action: string }>(
        `select action from console_audit where target = 'new.member@example.com' order by created_at`,
      )
    ).map((r) => r.action);
    // Password sign-ins are in the log too: the member signed in before and after being disabled.
    expect(actions).toEqual([
      'user.created',
      'user.signed_in',
      'user.updated',
      'user.updated',
      'user.updated',
      'user.disabled',
      'user.enabled',
      'user.signed_in',
      'user.signed_out_everywhere',
    ]);
    await memberContext.close();
    await context.close();
  });

  it('shows when each API key was last used on the keys page', async () => {
    const { apiKey, workspaceId } = await createWorkspaceVia(t.server);
    await request(t.server).post(`/admin/workspaces/${workspaceId}/api-keys`).set(admin).expect(201);
    await request(t.server).get('/v1/workspace').set('authorization', `Bearer ${apiKey}`).expect(200);
    const [used] = await eventually(
      () =>
        t.db.query<{ last_used_at: Date }>(
          'select last_used_at from api_keys where workspace_id = $1 and last_used_at is not null',
          [workspaceId],
        ),
      (rows) => rows.length === 1,
      { what: 'the used key to get its last_used_at', timeoutMs: 15_000 },
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInWithPassword(context, base, OPERATOR);
    await page.goto(`${base}/console/w/${workspaceId}/keys`);
    await page.getByRole('columnheader', { name: 'Last used' }).waitFor();
    const cells = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    const minute = used.last_used_at.toISOString().slice(0, 16).replace('T', ' ');
    expect(cells.map((c) => c.trim())).toEqual([`${minute} UTC`, 'Never']);
    await shot(page, 'keys-last-used');
    await context.close();
  });
});

describe('console single sign-on while the issuer is down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on this port: discovery fails.
    t = await startTestApp({
      env: {
        CONSOLE_OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`,
        CONSOLE_OIDC_CLIENT_ID: 'console',
        CONSOLE_OIDC_NAME: 'Down SSO',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('still serves the sign-in page, and answers the SSO button with a page saying the issuer is not answering', async () => {
    const page = await request(t.server).get('/console/sign-in').expect(200);
    expect(page.text).toContain('Sign in with Down SSO');
    const down = await request(t.server).get('/console/sso/start').expect(503);
    expect(down.headers['content-type']).toContain('text/html');
    expect(down.text).toContain('The sign-in service is not answering');
    expect(down.text).toContain('could not be reached');
    expect(down.text).toContain('Back to sign-in');
    // No flow was started, so no flow cookie.
    expect(([] as string[]).concat(down.headers['set-cookie'] ?? []).some((c) => c.startsWith('cd_console_sso='))).toBe(
      false,
    );
  });
});

describe('console single sign-on as a public client (no secret: PKCE alone)', () => {
  let t: TestApp;
  let issuer: OidcIssuer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    t = await startTestApp({
      env: {
        CONSOLE_OIDC_ISSUER: issuer.issuer,
        CONSOLE_OIDC_CLIENT_ID: issuer.publicClientId,
        CONSOLE_OIDC_NAME: 'Test SSO',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    await request(t.server)
      .post('/admin/console-users')
      .set(admin)
      .send({ email: 'ada@example.com', password: 'ada-password-12', operator: true })
      .expect(201);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await issuer?.stop();
  });

  it('signs in without a client secret', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signInWithSso(page, base, 'ada');
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await expect(page.locator('header').textContent()).resolves.toContain('ada@example.com');
    await context.close();
  });
});

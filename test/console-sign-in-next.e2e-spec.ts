import {
  CHROMIUM_ARGS,
  OidcIssuer,
  TEST_ADMIN_TOKEN,
  TestApp,
  createConsoleUser,
  startOidcIssuer,
  startTestApp,
} from '@test/support';
import { Browser, Page, chromium } from 'playwright-core';
import request from 'supertest';

/**
 * Where a console sign-in sends the browser (`next`): a console path parsed and normalized, never a
 * header injection (CR/LF used to be a 500: Node refuses the header) nor another site.
 */
const OPERATOR = { email: 'next-ops@example.com', password: 'operator-password-1' };

const HOSTILE = [
  '/console\r\nSet-Cookie: evil=1',
  '/console/\r\nSet-Cookie: evil=1',
  '/console/../..//evil.com',
  '/console/..//evil.com',
  '/console\\..\\..\\evil.com',
  '//evil.com/console',
  'https://evil.com/console',
  '/consolex',
  '/console/../admin/workspaces',
];

const cookieOf = (res: request.Response, name: string): string | undefined =>
  ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

describe('console sign-in: `next` is a console path or the console home', () => {
  let t: TestApp;
  let issuer: OidcIssuer;

  beforeAll(async () => {
    issuer = await startOidcIssuer();
    t = await startTestApp({
      env: {
        CONSOLE_OIDC_ISSUER: issuer.issuer,
        CONSOLE_OIDC_CLIENT_ID: issuer.clientId,
        CONSOLE_OIDC_CLIENT_SECRET: issuer.clientSecret,
        CONSOLE_OIDC_NAME: 'Test SSO',
      },
    });
    await createConsoleUser(t, { ...OPERATOR, operator: true });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.stop();
  });

  /** The form's double-submit token and its cookie, then the password sign-in with `next`. */
  async function signIn(next: string): Promise<request.Response> {
    const form = await request(t.server).get('/console/sign-in').expect(200);
    const token = /name="_signin" value="([^"]+)"/.exec(form.text)![1];
    return request(t.server)
      .post('/console/sign-in')
      .set('cookie', cookieOf(form, 'cd_console_signin')!)
      .type('form')
      .send({ _signin: token, email: OPERATOR.email, password: OPERATOR.password, next });
  }

  it.each(HOSTILE)('after a correct password, %j lands on /console (303, one session cookie)', async (next) => {
    const res = await signIn(next);
    expect([res.status, res.headers.location]).toEqual([303, '/console']);
    expect(res.headers.evil).toBeUndefined();
    expect(cookieOf(res, 'cd_console')).toBeDefined();
    expect(cookieOf(res, 'evil')).toBeUndefined();
  });

  it('a console page is followed, normalized', async () => {
    expect((await signIn('/console/domains?q=shop')).headers.location).toBe('/console/domains?q=shop');
    expect((await signIn('/console/a/../users')).headers.location).toBe('/console/users');
  });

  it('the sign-in page never carries a hostile next into its form or its SSO link', async () => {
    for (const next of HOSTILE) {
      const page = await request(t.server).get('/console/sign-in').query({ next }).expect(200);
      expect(page.text).toContain('name="next" value="/console"');
      expect(page.text).toContain('href="/console/sso/start"');
    }
  });

  it('SSO start with a hostile next goes to the issuer (no 500)', async () => {
    for (const next of HOSTILE) {
      const res = await request(t.server).get('/console/sso/start').query({ next });
      expect([next, res.status, new URL(res.headers.location).origin]).toEqual([next, 303, issuer.issuer]);
    }
  });

  describe('through the issuer, in headless Chromium', () => {
    let browser: Browser;
    let base: string;
    beforeAll(async () => {
      await t.app.listen(0, '127.0.0.1');
      base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
      await request(t.server)
        .post('/admin/console-users')
        .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
        .send({ email: 'ada@example.com', password: 'ada-password-12', operator: true })
        .expect(201);
    });
    afterAll(() => browser?.close());

    /** From SSO start (carrying `next`) through the issuer's login and consent back to us. */
    async function ssoFrom(page: Page, next: string): Promise<URL> {
      await page.goto(`${base}/console/sso/start?next=${encodeURIComponent(next)}`);
      const loginField = page.getByPlaceholder('Enter any login');
      const consent = page.getByRole('button', { name: 'Continue' });
      const inConsole = page.locator('header.top .brand');
      for (;;) {
        await loginField.or(consent).or(inConsole).first().waitFor();
        if (await inConsole.count()) return new URL(page.url());
        if (await loginField.count()) {
          await loginField.fill('ada');
          await page.getByPlaceholder('and password').fill('whatever-the-issuer-checks');
          await page.getByRole('button', { name: 'Sign-in' }).click();
          await loginField.waitFor({ state: 'detached' });
        } else {
          await consent.click();
          await consent.waitFor({ state: 'detached' });
        }
      }
    }

    it('lands on the console page asked for, and on the console for /console/../..//evil.com', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const good = await ssoFrom(page, '/console/users');
      expect([good.origin, good.pathname]).toEqual([base, '/console/users']);
      await context.clearCookies();
      const bad = await ssoFrom(page, '/console/../..//evil.com');
      expect(bad.origin).toBe(base);
      expect(bad.pathname).toMatch(/^\/console(\/|$)/);
      await context.close();
    });
  });
});

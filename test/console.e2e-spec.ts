import { TEST_ADMIN_TOKEN, TestApp, startTestApp } from '@test/support';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';
import request from 'supertest';

const ARTIFACTS = join(__dirname, 'artifacts');
const OPERATOR = { email: 'ops@example.com', password: 'operator-password-1' };
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** axe-core in the page: no serious or critical accessibility violation. */
async function expectAccessible(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol: the console's CSP (rightly) refuses injected script tags.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  })) as { id: string; impact: string; help: string }[];
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

async function shot(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  await page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage: true });
}

async function signIn(context: BrowserContext, base: string, who: { email: string; password: string }): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/console`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  return page;
}

describe('the web console in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('sets up the first operator with the admin token, then signs in and out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/console`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');
    await page.getByRole('link', { name: 'Create the first operator' }).click();
    await page.getByLabel('Admin token').fill('wrong-token-wrong-token');
    await page.getByLabel('Your email').fill(OPERATOR.email);
    await page.getByLabel(/Password/).fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Create operator and sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not the admin token');
    await shot(page, 'setup');
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByLabel(/Password/).fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Create operator and sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await expect(page.getByText('No workspaces yet').count()).resolves.toBe(1);
    await shot(page, 'workspaces-empty');

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
    const page = await signIn(context, base, OPERATOR);
    await page.getByLabel('Name').fill('Acme Inc.');
    await page.getByLabel(/Card on file/).fill('pm_card_visa');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^sk_/);
    await shot(page, 'keys-created');
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${key}`).expect(200);
    await page.getByRole('button', { name: /^Revoke key/ }).click();
    await page.getByText('The key is revoked').waitFor();
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${key}`).expect(401);
    await shot(page, 'keys');
    await context.close();
  });

  it('refuses a form without the CSRF token and throttles password guessing', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, base, OPERATOR);
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

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { TEST_ADMIN_TOKEN, TestApp } from './test-app';

/** Where browser tests write their screenshots for review. */
export const CONSOLE_ARTIFACTS = join(__dirname, '..', 'artifacts');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, headless, as the widget and console tests use it. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(CONSOLE_ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** axe-core in the page: the serious and critical accessibility violations (none expected). */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; help: string }[]> {
  // Evaluated through the DevTools protocol: the console's CSP (rightly) refuses injected script tags.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  })) as { id: string; impact: string; help: string }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** axe-core in the page: no serious or critical accessibility violation. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * Nothing on a phone is wider than the screen (a wide table scrolls inside its own frame): asserts
 * the page's width, naming the elements that stick out past the right edge when it is wider.
 */
export async function expectNoSidewaysScroll(page: Page, name: string): Promise<void> {
  const { width, outside } = await page.evaluate<{ width: number; outside: string[] }>(() => {
    const doc = (globalThis as any).document;
    const viewport = doc.documentElement.clientWidth as number;
    const outside = [...doc.querySelectorAll('main *')]
      .filter((el: any) => el.getBoundingClientRect().right > viewport + 1)
      // the innermost ones: an element whose child also sticks out is only its container
      .filter((el: any, _: number, all: any[]) => !all.some((other) => other !== el && el.contains(other)))
      .slice(0, 3)
      .map((el: any) => `<${el.tagName.toLowerCase()} class="${el.className}">${el.textContent.trim().slice(0, 80)}`);
    return { width: doc.documentElement.scrollWidth as number, outside };
  });
  const viewport = page.viewportSize()!.width;
  expect({ page: name, width, outside: width > viewport ? outside : [] }).toEqual({
    page: name,
    width: viewport,
    outside: [],
  });
}

/**
 * At a phone's width, the tables that stack (`table.stack`: one row a card, each cell under its
 * column's name) must fit their frame without scrolling sideways. Returns how many were checked.
 */
export async function expectStackedTablesFit(page: Page): Promise<number> {
  const tables = (await page.evaluate(() =>
    [...(globalThis as any).document.querySelectorAll('table.stack')].map((t: any) => ({
      width: t.scrollWidth as number,
      frame: (t.parentElement.clientWidth as number) + 1,
      firstCellLabel: (globalThis as any).getComputedStyle(t.querySelector('td'), '::before').content as string,
    })),
  )) as { width: number; frame: number; firstCellLabel: string }[];
  for (const table of tables) {
    expect(table.width).toBeLessThanOrEqual(table.frame);
    expect(table.firstCellLabel).not.toBe('none'); // each cell says which column it is
  }
  return tables.length;
}

/**
 * Checks accessibility and that no inline style is used (and, at a phone's width, that nothing is
 * wider than the screen and stacked tables fit), then writes `test/artifacts/console-<name>.png` (the
 * whole page). Returns how many stacked tables were checked (none above a phone's width).
 */
export async function consoleShot(page: Page, name: string): Promise<number> {
  await expectAccessible(page);
  // The console's CSP (style-src 'self') ignores inline style attributes: a page must not rely on one.
  expect(await page.locator('[style]').count()).toBe(0);
  let stacked = 0;
  if ((page.viewportSize()?.width ?? Infinity) <= 640) {
    await expectNoSidewaysScroll(page, name);
    stacked = await expectStackedTablesFit(page);
  }
  await page.screenshot({ path: join(CONSOLE_ARTIFACTS, `console-${name}.png`), fullPage: true });
  return stacked;
}

export interface ConsoleLogin {
  email: string;
  password: string;
}

/** A console user through the admin API: an operator, or a role in one workspace. */
export async function createConsoleUser(
  t: TestApp,
  user: ConsoleLogin & { operator?: boolean; workspaceId?: string; role?: 'member' | 'viewer' },
): Promise<ConsoleLogin> {
  await request(t.server)
    .post('/admin/console-users')
    .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
    .send(user)
    .expect(201);
  return { email: user.email, password: user.password };
}

/** A signed-in page at the workspaces list. */
export async function signInConsole(browser: Browser, base: string, who: ConsoleLogin): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return signInWithPassword(context, base, who);
}

/** Signs in with email and password on the console's own form. */
export async function signInWithPassword(context: BrowserContext, base: string, who: ConsoleLogin): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${base}/console`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  return page;
}

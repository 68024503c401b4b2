import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

export const CONSOLE_ARTIFACTS = join(__dirname, '..', 'artifacts');
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
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

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

/** Signs in with email and password on the console's own form. */
export async function signInWithPassword(
  context: BrowserContext,
  base: string,
  who: { email: string; password: string },
): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${base}/console`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  return page;
}

import {
  DnsServer,
  ORIGIN_URL,
  REGISTRANT,
  TestApp,
  domainEnv,
  domainZones,
  purchaseWorkspace,
  startDnsServer,
  startTestApp,
  uniqueDomain,
} from '@test/support';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import {
  consoleShot,
  createConsoleUser,
  launchChromium,
  signInConsole,
  signInWithPassword,
} from './support/console-browser';

// Whole user journeys in a real browser: slow on a loaded machine, so each test gets five minutes.
jest.setTimeout(300_000);

/** Domain purchases in the console: list, detail with the registrar's view, DNS editor, renew, nameservers. */
describe('the console: domain purchases in headless Chromium', () => {
  let t: TestApp;
  let dns: DnsServer;
  let browser: Browser;
  let base: string;
  let ws: string;
  let key: string;
  let bought: { id: string; hostname: string };
  const auth = () => ({ authorization: `Bearer ${key}` });
  const member = { email: 'buyer@example.com', password: 'buyer-password-1' };
  const viewer = { email: 'looker@example.com', password: 'looker-password-1' };
  const dnsOf = async (id: string) =>
    (await request(t.server).get(`/v1/domain-purchases/${id}/dns`).set(auth()).expect(200)).body.records as {
      type: string;
      name: string;
      value: string;
      ttl: number;
      priority?: number;
    }[];
  const editor = (page: Page) => page.locator('#dns-editor');

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    ({ apiKey: key, workspaceId: ws } = await purchaseWorkspace(t.server, 'pm_card_visa'));
    await createConsoleUser(t, { ...member, workspaceId: ws, role: 'member' });
    await createConsoleUser(t, { ...viewer, workspaceId: ws, role: 'viewer' });
    const buy = async (hostname: string) =>
      (
        await request(t.server)
          .post('/v1/domain-purchases')
          .set(auth())
          .send({ hostname, registrant: REGISTRANT })
          .expect(201)
      ).body.purchase as { id: string; hostname: string; status: string };
    await buy(uniqueDomain('older'));
    bought = await buy(uniqueDomain('shop'));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await dns?.close();
  });

  it('lists purchases with filters, shows the registrar view and edits the whole DNS set safely', async () => {
    const page = await signInConsole(browser, base, member);
    await page.goto(`${base}/console/w/${ws}/purchases`);
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await page.getByLabel('Hostname').fill(bought.hostname.toUpperCase());
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No purchase matches these filters').waitFor();
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await consoleShot(page, 'purchases');

    await page.getByRole('link', { name: bought.hostname }).click();
    await page.getByRole('heading', { name: 'At the registrar now' }).waitFor();
    await expect(page.locator('dl.facts').nth(1).textContent()).resolves.toContain('dns1.sandbox-registrar.example');
    // The editor starts from the registrar's current set.
    await expect(page.getByLabel('Value of row 1').inputValue()).resolves.toBe('198.51.100.80');
    await expect(page.getByLabel('Value of row 2').inputValue()).resolves.toBe('parking.sandbox-registrar.example');
    await consoleShot(page, 'purchase-detail');

    // Change one, remove one, add two (one MX with its priority): the whole edited set is stored.
    await page.getByLabel('Value of row 1').fill('203.0.113.10');
    await editor(page).locator('input[name="remove.1"]').check();
    await page.getByLabel('Type of row 3').selectOption('TXT');
    await page.getByLabel('Name of row 3').fill('@');
    await page.getByLabel('Value of row 3').fill('v=spf1 -all');
    await page.getByLabel('Type of row 4').selectOption('MX');
    await page.getByLabel('Name of row 4').fill('@');
    await page.getByLabel('Value of row 4').fill('mail.example.net');
    await page.getByLabel('Priority of row 4').fill('10');
    await page.getByRole('button', { name: 'Save DNS records' }).click();
    await page.getByText('DNS records saved at the registrar.').waitFor();
    expect(await dnsOf(bought.id)).toEqual([
      { type: 'A', name: '@', value: '203.0.113.10', ttl: 1800 },
      { type: 'TXT', name: '@', value: 'v=spf1 -all', ttl: 1800 },
      { type: 'MX', name: '@', value: 'mail.example.net', ttl: 1800, priority: 10 },
    ]);
    await expect(page.getByLabel('Value of row 3').inputValue()).resolves.toBe('mail.example.net');

    // A bad value is refused by the use case's rules and shown beside its row; nothing is stored.
    await page.getByLabel('Type of row 4').selectOption('A');
    await page.getByLabel('Name of row 4').fill('www');
    await page.getByLabel('Value of row 4').fill('not-an-address');
    await page.getByLabel('TTL of row 1').fill('30');
    await page.getByRole('button', { name: 'Save DNS records' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The records were not saved');
    expect(await page.locator('#problem-3').textContent()).toMatch(/value must be an IPv4 address/);
    expect(await page.locator('#problem-0').textContent()).toMatch(/ttl must not be less than 60/);
    // The user's edits are still in the form.
    await expect(page.getByLabel('Value of row 4').inputValue()).resolves.toBe('not-an-address');
    await expect(page.getByLabel('Value of row 4').getAttribute('aria-invalid')).resolves.toBe('true');
    await consoleShot(page, 'purchase-dns-invalid');
    expect(await dnsOf(bought.id)).toHaveLength(3);

    // Someone else saves meanwhile (the API): saving this form would lose their change, so it is refused.
    await page.goto(`${base}/console/w/${ws}/purchases/${bought.id}`);
    const theirs = [{ type: 'A', name: '@', value: '192.0.2.7', ttl: 600 }];
    await request(t.server).put(`/v1/domain-purchases/${bought.id}/dns`).set(auth()).send({ records: theirs });
    await page.getByLabel('Value of row 1').fill('203.0.113.99');
    await page.getByRole('button', { name: 'Save DNS records' }).click();
    await page.getByText(/The DNS records changed after this page was loaded/).waitFor();
    expect(await dnsOf(bought.id)).toEqual(theirs);
    await expect(page.getByLabel('Value of row 1').inputValue()).resolves.toBe('192.0.2.7');
    await consoleShot(page, 'purchase-dns-conflict');
    // Saved again from the fresh form, it goes through.
    await page.getByLabel('Value of row 1').fill('203.0.113.99');
    await page.getByRole('button', { name: 'Save DNS records' }).click();
    await page.getByText('DNS records saved at the registrar.').waitFor();
    expect((await dnsOf(bought.id))[0].value).toBe('203.0.113.99');
    await page.context().close();
  });

  it('renews, toggles auto-renew, sets and restores nameservers, connects, and audits it all', async () => {
    const page = await signInConsole(browser, base, member);
    await page.goto(`${base}/console/w/${ws}/purchases/${bought.id}`);
    const before = (await request(t.server).get(`/v1/domain-purchases/${bought.id}`).set(auth())).body.purchase;

    await page.getByLabel('Years').selectOption('2');
    await page.getByRole('button', { name: 'Review the renewal…' }).click();
    await page.getByRole('button', { name: /^Pay .* and renew$/ }).click();
    await page.getByText('Renewed: the new expiry is below.').waitFor();
    const after = (await request(t.server).get(`/v1/domain-purchases/${bought.id}`).set(auth())).body.purchase;
    const years = (Date.parse(after.expiresAt) - Date.parse(before.expiresAt)) / (365.25 * 86_400_000);
    expect(Math.round(years)).toBe(2);
    await page.getByRole('heading', { name: 'Renewals' }).waitFor();
    expect(
      await t.db.query("select 1 from sandbox_charges where metadata->>'purchaseId' = $1", [bought.id]),
    ).toHaveLength(2);
    // The same renew form sent twice (a double click, a resent POST) renews and charges once.
    const yearPrice = Math.round(Number((await page.locator('#renewal-price').textContent())!.split(' ')[0]) * 100);
    const statuses = await page.evaluate(
      async ({ action, yearPrice }) => {
        const doc = (globalThis as any).document;
        const token = doc.querySelector('input[name=_csrf]').value as string;
        const send = () =>
          fetch(action, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `_csrf=${encodeURIComponent(token)}&years=1&requestKey=twice-sent-form-0001&confirmedTotalCents=${yearPrice}`,
            redirect: 'manual',
          }).then((r) => r.status);
        return [await send(), await send()];
      },
      { action: `/console/w/${ws}/purchases/${bought.id}/renew`, yearPrice },
    );
    expect(statuses).toEqual([0, 0]); // opaque redirects: 303 to the purchase page
    expect(
      await t.db.query("select 1 from sandbox_charges where metadata->>'purchaseId' = $1", [bought.id]),
    ).toHaveLength(3);
    const twice = (await request(t.server).get(`/v1/domain-purchases/${bought.id}`).set(auth())).body.purchase;
    expect(Math.round((Date.parse(twice.expiresAt) - Date.parse(after.expiresAt)) / (365.25 * 86_400_000))).toBe(1);

    await page.getByRole('button', { name: 'Turn auto-renew on' }).click();
    await page.getByText('Auto-renew is on.').waitFor();
    await page.getByRole('button', { name: 'Turn auto-renew off' }).click();
    await page.getByText('Auto-renew is off').waitFor();
    expect((await request(t.server).get(`/v1/domain-purchases/${bought.id}`).set(auth())).body.purchase.autoRenew).toBe(
      false,
    );

    // A nameserver the registrar refuses is shown beside the form, as typed.
    await page.getByLabel(/Custom nameservers/).fill('ns1.example.net\nrefuse-ns.example.net');
    await page.getByRole('button', { name: 'Save nameservers' }).click();
    await page.getByText(/The registrar refused/).waitFor();
    await expect(page.getByLabel(/Custom nameservers/).inputValue()).resolves.toContain('refuse-ns.example.net');
    await page.getByLabel(/Custom nameservers/).fill('ns1.example.net\nns2.example.net');
    await page.getByRole('button', { name: 'Save nameservers' }).click();
    await page.getByText('Nameservers saved.').waitFor();
    await page.getByText(/custom nameservers, so the registrar DNS records do not apply/).waitFor();
    await expect(page.locator('#dns-editor').count()).resolves.toBe(0);
    await page.getByRole('button', { name: "Restore the registrar's nameservers" }).click();
    await page.getByText("The registrar's own nameservers are back").waitFor();
    await editor(page).waitFor();

    await page.getByLabel('Origin URL').fill(ORIGIN_URL);
    await page.getByRole('button', { name: 'Connect domain' }).click();
    await page.getByText('Connected: the domain is created').waitFor();
    await page.getByRole('link', { name: bought.hostname }).click();
    await page.getByRole('heading', { name: bought.hostname }).waitFor();
    expect(page.url()).toContain('/domains/dom_');

    await page.goto(`${base}/console/w/${ws}/audit`);
    const log = await page.locator('tbody').textContent();
    for (const action of [
      'purchase.dns_replaced',
      'purchase.renewed',
      'purchase.auto_renew_set',
      'purchase.nameservers_set',
      'purchase.connected',
    ]) {
      expect(log).toContain(action);
    }
    await page.goto(`${base}/console/w/${ws}/purchases/${bought.id}`);
    await consoleShot(page, 'purchase-renewed');
    await page.context().close();
  });

  it('renews at most at the confirmed price: a higher one is refused by the purchase, nothing charged, and asked again', async () => {
    const renewing = (
      await request(t.server)
        .post('/v1/domain-purchases')
        .set(auth())
        .send({ hostname: uniqueDomain('confirm'), registrant: REGISTRANT })
        .expect(201)
    ).body.purchase as { id: string };
    const charges = async () =>
      (await t.db.query("select 1 from sandbox_charges where metadata->>'purchaseId' = $1", [renewing.id])).length;
    for (const [device, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const page = await signInWithPassword(await browser.newContext({ viewport }), base, member);
      await page.goto(`${base}/console/w/${ws}/purchases/${renewing.id}`);
      await page.getByLabel('Years').selectOption('1');
      await page.getByRole('button', { name: 'Review the renewal…' }).click();
      // The page was confirmed at a price a cent lower than the purchase charges now (the price rose since).
      const shown = Number(await page.locator('input[name=confirmedTotalCents]').inputValue());
      await page.locator('input[name=confirmedTotalCents]').evaluate((input, cents) => {
        (input as unknown as { value: string }).value = String(cents);
      }, shown - 1);
      const before = await charges();
      await page.getByRole('button', { name: /^Pay .* and renew$/ }).click();
      await page.getByRole('alert').filter({ hasText: 'The price changed since it was shown' }).waitFor();
      expect(await page.getByRole('alert').first().textContent()).toContain('Nothing was charged');
      expect(await charges()).toBe(before);
      await consoleShot(page, `renew-price-rose-${device}`);
      // Confirmed again at the price shown now: renewed once.
      await page.getByRole('button', { name: /^Pay .* and renew$/ }).click();
      await page.getByText('Renewed: the new expiry is below.').waitFor();
      expect(await charges()).toBe(before + 1);
      await page.context().close();
    }
  });

  it('shows a viewer the purchase read-only and refuses its writes', async () => {
    const page = await signInConsole(browser, base, viewer);
    await page.goto(`${base}/console/w/${ws}/purchases/${bought.id}`);
    await page.getByRole('heading', { name: 'DNS records at the registrar' }).waitFor();
    await page.getByText('Viewers cannot change DNS records.').waitFor();
    await expect(page.getByRole('button', { name: 'Save DNS records' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Renew', exact: true }).count()).resolves.toBe(0);
    await consoleShot(page, 'purchase-viewer');
    const status = await page.evaluate(
      async ({ ws: w, id }) => {
        const doc = (globalThis as any).document;
        const token = doc.querySelector('input[name=_csrf]').value as string;
        const response = await fetch(`/console/w/${w}/purchases/${id}/renew`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `_csrf=${encodeURIComponent(token)}&years=1`,
        });
        return response.status;
      },
      { ws, id: bought.id },
    );
    expect(status).toBe(403);
    expect(
      await t.db.query("select 1 from sandbox_charges where metadata->>'purchaseId' = $1", [bought.id]),
    ).toHaveLength(3);
    await page.context().close();
  });
});

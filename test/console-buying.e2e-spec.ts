import {
  DnsServer,
  ORIGIN_URL,
  REGISTRANT,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  purchaseWorkspace,
  startDnsServer,
  startTestApp,
  uniqueDomain,
} from '@test/support';
import { SANDBOX_DEFAULT_NAMESERVERS } from '@app/registrar';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { FakeStripe, startStripeServer } from './fakes';
import { consoleShot, createConsoleUser, launchChromium, signInWithPassword } from './support/console-browser';

jest.setTimeout(300_000);

const VIEWPORTS = [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const cents = (text: string | null) => Math.round(Number(/([\d.]+) USD/.exec(text ?? '')?.[1]) * 100);
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Buying and paying in the console: renewals priced and confirmed before the charge, the
 * nameservers the API and the console name, the workspace's card, in headless Chromium at desktop
 * and phone width. Payments go through the Stripe adapter to a fake speaking Stripe's wire format.
 */
describe('the console: buying, renewing and paying', () => {
  let t: TestApp;
  let dns: DnsServer;
  let stripe: FakeStripe;
  let browser: Browser;
  let base: string;
  let ws: string;
  let key: string;
  const operator = { email: 'billing@example.com', password: 'billing-password-1' };
  const auth = () => ({ authorization: `Bearer ${key}` });
  const purchase = async (id: string) =>
    (await request(t.server).get(`/v1/domain-purchases/${id}`).set(auth()).expect(200)).body.purchase;
  const buy = async (hostname: string) =>
    (
      await request(t.server)
        .post('/v1/domain-purchases')
        .set(auth())
        .send({ hostname, registrant: REGISTRANT })
        .expect(201)
    ).body.purchase as { id: string; hostname: string };
  const intents = () =>
    stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && !r.replayed);

  beforeAll(async () => {
    stripe = await startStripeServer();
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), ...stripe.env } });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    ({ apiKey: key, workspaceId: ws } = await purchaseWorkspace(t.server, 'pm_card_visa'));
    await createConsoleUser(t, { ...operator, operator: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await dns?.close();
    await stripe?.close();
  });

  async function pageAt(viewport: { width: number; height: number }): Promise<Page> {
    return signInWithPassword(await browser.newContext({ viewport }), base, operator);
  }

  it('renewing shows the price first, then a confirmation (price, period, card); a GET charges nothing, a resent form renews once', async () => {
    const bought = await buy(uniqueDomain('renew'));
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/purchases/${bought.id}`);
      const yearPrice = cents(await page.locator('#renewal-price').textContent());
      expect(yearPrice).toBeGreaterThan(0);
      const before = await purchase(bought.id);
      const charged = intents().length;

      await page.getByLabel('Years').selectOption('2');
      await page.getByRole('button', { name: 'Review the renewal…' }).click();
      await page.getByRole('heading', { name: `Renew ${bought.hostname} for 2 years?` }).waitFor();
      const terms = squash(await page.locator('#renewal-terms').textContent());
      expect(terms).toMatch(/Price \d+\.\d\d USD \(registrar \d+\.\d\d USD, our fee \d+\.\d\d USD\)/);
      expect(terms).toMatch(/Period 2 years: the expiry moves from .+ to .+/);
      expect(terms).toContain('Charged to Visa ending 4242');
      const price = cents(terms.replace(/^Price /, ''));
      await consoleShot(page, `renew-confirm-${device}`);
      // Looking (and looking again) charges nothing.
      await page.reload();
      expect(intents().length).toBe(charged);
      expect((await purchase(bought.id)).expiresAt).toBe(before.expiresAt);

      const form = await page
        .locator('form[action$="/renew"]')
        .evaluate((f: any) => Object.fromEntries(new (globalThis as any).FormData(f)));
      await page.getByRole('button', { name: `Pay ${(price / 100).toFixed(2)} USD and renew` }).click();
      await page.getByText('Renewed: the new expiry is below.').waitFor();
      expect(intents().length).toBe(charged + 1);
      expect(intents().at(-1)!.form.amount).toBe(String(price));
      const after = await purchase(bought.id);
      expect(Math.round((Date.parse(after.expiresAt) - Date.parse(before.expiresAt)) / (365.25 * 86_400_000))).toBe(2);
      // The same confirmed form again (a resent POST): the request key answers the renewal made, no second charge.
      const again = await page.request.post(`${base}/console/w/${ws}/purchases/${bought.id}/renew`, {
        form,
        maxRedirects: 0,
      });
      expect(again.status()).toBe(303);
      expect(intents().length).toBe(charged + 1);
      expect((await purchase(bought.id)).expiresAt).toBe(after.expiresAt);
      await page.context().close();
    }
  });

  it('the API and the console name the same nameservers: the registrar own ones, then custom ones', async () => {
    const bought = await buy(uniqueDomain('ns'));
    const inConsole = async (page: Page) => {
      await page.goto(`${base}/console/w/${ws}/purchases/${bought.id}`);
      const shown = await page.locator('code.nameserver').allTextContents();
      const live = squash(await page.locator('section.card', { hasText: 'At the registrar now' }).textContent());
      return { shown, live };
    };
    const viaApi = async () => ({
      purchase: (await purchase(bought.id)).nameservers as string[],
      details: (await request(t.server).get(`/v1/domain-purchases/${bought.id}/details`).set(auth()).expect(200)).body,
    });
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      const api = await viaApi();
      expect(api.purchase).toEqual([...SANDBOX_DEFAULT_NAMESERVERS]);
      expect(api.details.purchase.nameservers).toEqual(api.purchase);
      expect(api.details.live.nameservers).toEqual(api.purchase);
      const registrarOwn = await inConsole(page);
      expect(registrarOwn.shown).toEqual(api.purchase);
      for (const ns of api.purchase) expect(registrarOwn.live).toContain(ns);
      expect(await page.getByLabel(/Custom nameservers/).inputValue()).toBe('');
      await consoleShot(page, `purchase-nameservers-${device}`);

      const custom = ['ns1.example.net', 'ns2.example.net'];
      await request(t.server)
        .put(`/v1/domain-purchases/${bought.id}/nameservers`)
        .set(auth())
        .send({ nameservers: custom })
        .expect(200, { hostname: bought.hostname, nameservers: custom });
      expect((await viaApi()).purchase).toEqual(custom);
      expect((await inConsole(page)).shown).toEqual(custom);
      const restored = await request(t.server)
        .put(`/v1/domain-purchases/${bought.id}/nameservers`)
        .set(auth())
        .send({ nameservers: [] })
        .expect(200);
      expect(restored.body.nameservers).toEqual(api.purchase);
      await page.context().close();
    }
  });

  it('a workspace adds and changes its card, checked with Stripe; a wrong id is shown under the field as typed', async () => {
    const bare = await purchaseWorkspace(t.server);
    const cards = ['pm_card_mastercard', 'pm_card_visa'];
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${bare.workspaceId}`);
      // Desktop adds the first card, the phone changes it.
      const adding = device === 'desktop';
      expect(await page.locator('#billing-card').textContent()).toMatch(adding ? /^No card on file$/ : /^Mastercard/);
      await page.getByRole('link', { name: adding ? 'Add a card →' : 'Change the card →' }).click();
      await page.getByLabel('Payment method id').fill('pm_card_typo');
      await page.getByRole('button', { name: /^Save/ }).click();
      const problem = page.locator('#card-pm-problem');
      expect(await problem.textContent()).toContain("No such PaymentMethod: 'pm_card_typo'");
      expect(await page.getByLabel('Payment method id').inputValue()).toBe('pm_card_typo');
      await consoleShot(page, `card-refused-${device}`);

      const card = cards[device === 'desktop' ? 0 : 1];
      await page.getByLabel('Payment method id').fill(card);
      await page.getByRole('button', { name: /Save/ }).click();
      await page.getByText('Card saved').waitFor();
      const shown = await page.locator('#billing-card').textContent();
      expect(shown).toMatch(device === 'desktop' ? /^Mastercard ending 4444, expires 12\/\d{4}$/ : /^Visa ending 4242/);
      expect(stripe.requests).toContainEqual(
        expect.objectContaining({ method: 'GET', path: `/v1/payment_methods/${card}` }),
      );
      await consoleShot(page, `card-saved-${device}`);
      await page.context().close();
    }
    const admin = await request(t.server)
      .get(`/admin/workspaces/${bare.workspaceId}`)
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    expect(admin.body.workspace.hasPaymentMethod).toBe(true);
    // The new card is the one charged: a purchase with the workspace's own key.
    const hostname = uniqueDomain('card');
    await request(t.server)
      .post('/v1/domain-purchases')
      .set('authorization', `Bearer ${bare.apiKey}`)
      .send({ hostname, registrant: REGISTRANT })
      .expect(201);
    expect(intents().at(-1)!.form.payment_method).toBe('pm_card_visa');
    const page = await pageAt(VIEWPORTS[0][1]);
    await page.goto(`${base}/console/audit?action=workspace.card_set`);
    const log = squash(await page.locator('tbody').textContent());
    expect(log).toContain('card: — → Mastercard ending 4444');
    expect(log).toContain('card: Mastercard ending 4444');
    await page.context().close();
  });

  it('a bought, connected domain on our registrar DNS says we set the DNS up and links to its purchase; the API asks for A records at the apex', async () => {
    const hostname = uniqueDomain('managed');
    const bought = (
      await request(t.server)
        .post('/v1/domain-purchases')
        .set(auth())
        .send({ hostname, registrant: REGISTRANT, autoConnect: { originUrl: ORIGIN_URL } })
        .expect(201)
    ).body.purchase as { id: string; connectedDomainId: string };
    const domainId = bought.connectedDomainId;
    const checked = await request(t.server).post(`/v1/domains/${domainId}/check`).set(auth()).expect(200);
    // The apex is asked for A records (the registrar holds A records at @), never a CNAME.
    expect(checked.body.domain.apex).toBe(true);
    expect(checked.body.domain.monitorMessage).not.toContain('CNAME');
    for (const [device, viewport] of VIEWPORTS) {
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/domains/${domainId}`);
      const customer = squash(await page.locator('section.card', { hasText: 'What the customer sees' }).textContent());
      expect(customer).toContain('We set up the DNS for you at our registrar: nothing to add.');
      expect(customer).not.toContain('at your registrar');
      expect(customer).toContain(`${hostname} was bought through us and runs on our registrar's DNS`);
      const records = squash(await page.locator('section.card', { hasText: 'DNS records' }).first().textContent());
      expect(records).toContain("runs on our registrar's DNS");
      await consoleShot(page, `domain-managed-dns-${device}`);
      await page
        .locator('section.card', { hasText: 'What the customer sees' })
        .getByRole('link', { name: 'Its purchase →' })
        .click();
      await page.getByRole('heading', { name: hostname, level: 1 }).waitFor();
      expect(page.url()).toContain(`/purchases/${bought.id}`);
      await page.context().close();
    }
    // On custom nameservers the DNS is the customer's again: the page no longer says we set it up.
    await request(t.server)
      .put(`/v1/domain-purchases/${bought.id}/nameservers`)
      .set(auth())
      .send({ nameservers: ['ns1.example.net', 'ns2.example.net'] })
      .expect(200);
    const page = await pageAt(VIEWPORTS[0][1]);
    await page.goto(`${base}/console/w/${ws}/domains/${domainId}`);
    const customer = squash(await page.locator('section.card', { hasText: 'What the customer sees' }).textContent());
    expect(customer).not.toContain('We set up the DNS');
    await page.context().close();
  });

  it('buys a domain from the console: availability and price, registrant, a confirmation, once (post, redirect, get)', async () => {
    for (const [device, viewport] of VIEWPORTS) {
      const hostname = uniqueDomain(`buy${device}`);
      const page = await pageAt(viewport);
      await page.goto(`${base}/console/w/${ws}/purchases`);
      await page.getByRole('link', { name: 'Buy a domain' }).click();
      // A search that cannot be answered says why under the field, with what was typed.
      await page.getByLabel('Domain', { exact: true }).fill('https://shop.example.com/');
      await page.getByRole('button', { name: 'Check availability' }).click();
      expect(await page.locator('#find-hostname-problem').textContent()).toBeTruthy();
      expect(await page.getByLabel('Domain', { exact: true }).inputValue()).toBe('https://shop.example.com/');
      expect(await page.getByLabel('Domain', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await consoleShot(page, `buy-search-refused-${device}`);
      const taken = uniqueDomain('taken');
      await page.getByLabel('Domain', { exact: true }).fill(taken);
      await page.getByRole('button', { name: 'Check availability' }).click();
      expect(squash(await page.locator('#availability').textContent())).toBe(
        `${taken} is not available: it is registered already, or its TLD is not offered.`,
      );
      await page.getByLabel('Domain', { exact: true }).fill(hostname);
      await page.getByRole('button', { name: 'Check availability' }).click();
      const check = (
        await request(t.server).get('/v1/domain-purchases/check').query({ hostname }).set(auth()).expect(200)
      ).body as { available: boolean; totalCents: number };
      expect(check.available).toBe(true);
      expect(squash(await page.locator('#availability').textContent())).toBe(
        `${hostname} is available: ${(check.totalCents / 100).toFixed(2)} USD for the first year.`,
      );

      const registration = page.locator('form[action$="/purchases/buy"][method="post"]');
      for (const [name, value] of Object.entries(REGISTRANT)) {
        await registration.locator(`[name="${name}"]`).fill(name === 'email' ? 'ada-at-example.com' : value);
      }
      await page.getByRole('button', { name: 'Review the purchase…' }).click();
      const email = page.getByLabel('Email');
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#buy-registrant-email-problem').textContent()).toBe('email must be an email address');
      expect(await email.inputValue()).toBe('ada-at-example.com');
      expect(await page.getByLabel('City').inputValue()).toBe(REGISTRANT.city);
      await consoleShot(page, `buy-refused-${device}`);

      await email.fill(REGISTRANT.email);
      await page.getByRole('button', { name: 'Review the purchase…' }).click();
      await page.getByRole('heading', { name: `Buy ${hostname} for 1 year?` }).waitFor();
      const terms = squash(await page.locator('#purchase-terms').textContent());
      expect(cents(terms)).toBe(check.totalCents);
      expect(terms).toContain('Charged to Visa ending 4242');
      expect(terms).toContain('Ada Lovelace, ada@example.com');
      await consoleShot(page, `buy-confirm-${device}`);
      const charged = intents().length;
      const form = await page
        .locator('form', { has: page.getByRole('button', { name: /^Pay / }) })
        .evaluate((f: any) => Object.fromEntries(new (globalThis as any).FormData(f)));
      await page.getByRole('button', { name: `Pay ${(check.totalCents / 100).toFixed(2)} USD and buy` }).click();
      await page.getByRole('heading', { name: hostname, level: 1 }).waitFor();
      expect(page.url()).toMatch(/\/purchases\/pur_\w+\?notice=bought$/);
      await consoleShot(page, `bought-${device}`);

      // A reload, and the same form sent again, buy nothing more.
      await page.reload();
      const resent = await page.request.post(`${base}/console/w/${ws}/purchases/buy`, { form, maxRedirects: 0 });
      expect(resent.status()).toBe(303);
      expect(resent.headers().location).toBe(new URL(page.url()).pathname + new URL(page.url()).search);
      expect(intents().length).toBe(charged + 1);
      const listed = (await request(t.server).get('/v1/domain-purchases').query({ hostname }).set(auth()).expect(200))
        .body.purchases as { status: string; totalCents: number }[];
      expect(listed).toEqual([expect.objectContaining({ status: 'completed', totalCents: check.totalCents })]);
      await page.context().close();
    }
    const page = await pageAt(VIEWPORTS[0][1]);
    // Bought here once at each width (the resent form is not audited); the API's purchases are the API key's.
    await page.goto(`${base}/console/audit?action=purchase.bought&actor=${encodeURIComponent(operator.email)}`);
    expect(await page.locator('tbody tr').count()).toBe(2);
    await page.context().close();
  });
});

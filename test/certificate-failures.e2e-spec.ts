import { join } from 'node:path';
import {
  AcmeProxy,
  CERTIFICATE_EDGE as EDGE,
  CONSOLE_ARTIFACTS,
  CertificateStack,
  ORIGIN_URL,
  ProxiedCaSpec,
  createConsoleUser,
  expectAccessible,
  expectNoSidewaysScroll,
  expectStackedTablesFit,
  freePort,
  launchChromium,
  proxiedPebbles,
  signInConsole,
  startCertificateStack,
} from '@test/support';
import request from 'supertest';

const MINUTE = 60_000;

interface Scenario {
  name: string;
  cas: ProxiedCaSpec[];
  /** What to break at the CA before the domain is connected. */
  before?: (cas: Record<string, AcmeProxy>) => void;
  code: string;
  /** What the customer reads: what happened and what to do. */
  message: RegExp;
  /** Earliest and latest next try, from now. */
  retryWithinMs: [number, number];
  retryOnCheckLabel: string;
}

const LE = { name: 'letsencrypt', caaIdentities: ['letsencrypt.org'] };

/** Each failure a customer or support must be able to act on, each with its own CA (a real Pebble behind the proxy). */
const SCENARIOS: Scenario[] = [
  {
    name: 'the CA is down',
    cas: [LE],
    before: (cas) => cas.letsencrypt.down(true),
    code: 'ca_unavailable',
    message: /^letsencrypt could not be reached \(.*\)\. Nothing to do on your side: we try again at \d\d:\d\d UTC\.$/,
    retryWithinMs: [30_000, 2 * MINUTE],
    retryOnCheckLabel: 'no',
  },
  {
    name: 'the CA rate-limits us',
    cas: [LE],
    before: (cas) =>
      cas.letsencrypt.failAll({
        type: 'urn:ietf:params:acme:error:rateLimited',
        detail: 'too many new orders recently',
        status: 429,
        retryAfterSeconds: 3 * 3600,
      }),
    code: 'ca_rate_limited',
    message: /^letsencrypt asked us to slow down \(.*too many new orders recently\)\. Nothing to do on your side/,
    retryWithinMs: [3 * 3600_000 - MINUTE, 3 * 3600_000 + MINUTE],
    retryOnCheckLabel: 'no',
  },
  {
    name: 'HTTP-01 validation fails',
    cas: [{ ...LE, validationPort: 1 }],
    code: 'validation_failed',
    message:
      /^letsencrypt could not verify fail\.customer-a\.com over HTTP \(.+\)\. Make sure fail\.customer-a\.com points only/,
    retryWithinMs: [4 * MINUTE, 6 * MINUTE],
    retryOnCheckLabel: 'yes',
  },
  {
    name: 'our External Account Binding is wrong',
    cas: [{ ...LE, eab: 'wrong' }],
    code: 'ca_account',
    message: /^Our account at letsencrypt was not accepted \(.*\); our operators have to fix it/,
    retryWithinMs: [55 * MINUTE, 65 * MINUTE],
    retryOnCheckLabel: 'no',
  },
];

describe.each(SCENARIOS)('a certificate failure is shown on the domain: $name', (scenario) => {
  const cas: Record<string, AcmeProxy> = {};
  let stack: CertificateStack;
  beforeAll(async () => {
    const cfg = await Promise.all(
      scenario.cas.map(async (ca) => (ca.validationPort ? { ...ca, validationPort: await freePort() } : ca)),
    );
    stack = await startCertificateStack({ issuers: proxiedPebbles(cfg, cas), waitTimeoutMs: 30_000 });
    scenario.before?.(cas);
  });
  afterAll(async () => stack?.close());

  it('with its code, a message that says what to do, the next try and the attempt', async () => {
    const { dns, t, auth, waitFor } = stack;
    dns.setRecords('fail.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'fail.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const before = Date.now();
    const domain = await waitFor(body.domain.id, (d) => d.certificate.errorCode !== null);
    expect(domain).toMatchObject({ status: 'pending', monitorStatus: 'pending_ssl' });
    expect(domain.certificate.errorCode).toBe(scenario.code);
    expect(domain.certificate.error).toMatch(scenario.message);
    // pending_ssl says why it is still pending, not "SSL is being issued".
    expect(domain.monitorMessage).toBe(domain.certificate.error);
    const retryAt = Date.parse(domain.certificate.retryAt);
    expect(retryAt - before).toBeGreaterThanOrEqual(scenario.retryWithinMs[0]);
    expect(retryAt - before).toBeLessThanOrEqual(scenario.retryWithinMs[1]);
    expect(domain.certificate.attempts).toEqual([
      {
        at: expect.any(String),
        issuer: 'letsencrypt',
        outcome: 'failed',
        code: scenario.code,
        message: domain.certificate.error,
      },
    ]);

    // Operators see it too: attempts by CA and outcome (what the issuance alerts read).
    const metrics = (await request(t.server).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(
      new RegExp(`certificate_order_attempts_total\\{issuer="letsencrypt",outcome="${scenario.code}"\\} [1-9]`),
    );

    // Probes go on, and nothing is ordered again before the next try.
    const orders = cas.letsencrypt.orders().length;
    await request(t.server).post(`/v1/domains/${body.domain.id}/check`).set(auth).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const retried = scenario.retryOnCheckLabel === 'yes';
    const after = (await request(t.server).get(`/v1/domains/${body.domain.id}`).set(auth).expect(200)).body.domain;
    if (retried) expect(after.certificate.attempts.length).toBeGreaterThan(1);
    else {
      expect(cas.letsencrypt.orders().length).toBe(orders);
      expect(after.certificate.attempts).toHaveLength(1);
    }
  });

  if (scenario.code === 'validation_failed')
    it('shows the attempts in the console, on a desktop and a phone', async () => {
      const { t } = stack;
      await t.app.listen(0, '127.0.0.1');
      const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
      const operator = await createConsoleUser(t, {
        email: 'support@example.com',
        password: 'support-password-1',
        operator: true,
      });
      const [domain] = (await t.db.query<{ id: string; workspace_id: string }>(
        "select id, workspace_id from domains where hostname = 'fail.customer-a.com'",
      )) as Array<{ id: string; workspace_id: string }>;
      const browser = await launchChromium();
      try {
        const page = await signInConsole(browser, base, operator);
        await page.goto(`${base}/console/w/${domain.workspace_id}/domains/${domain.id}`);
        const orders = page
          .getByRole('region', { name: 'Certificate orders' })
          .or(page.locator('section', { hasText: 'Certificate orders' }));
        await orders.first().waitFor();
        const text = (await orders.first().textContent()) ?? '';
        expect(text).toContain('validation_failed');
        expect(text).toContain('could not verify fail.customer-a.com');
        await expectAccessible(page);
        await page.screenshot({
          path: join(CONSOLE_ARTIFACTS, 'console-certificate-failure-desktop.png'),
          fullPage: true,
        });
        await page.setViewportSize({ width: 390, height: 844 });
        // On a phone the orders and DNS records are cards of labelled lines, and the long error wraps.
        expect(await expectStackedTablesFit(page)).toBeGreaterThanOrEqual(2);
        await expectNoSidewaysScroll(page, 'certificate-failure-phone');
        await page.screenshot({
          path: join(CONSOLE_ARTIFACTS, 'console-certificate-failure-phone.png'),
          fullPage: true,
        });
      } finally {
        await browser.close();
      }
    });
});

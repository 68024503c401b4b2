import { DomainRepository } from '@app/domains';
import { ATTEMPTS_KEPT, DeliveryWorker } from '@app/webhooks';
import {
  DnsServer,
  ManualClock,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  WebhookReceiver,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  eventually,
  startDnsServer,
  judgeTimes,
  startCpuAccounting,
  startTestAppWithClock,
  startWebhookReceiver,
} from '@test/support';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import {
  CONSOLE_ARTIFACTS,
  consoleShot,
  createConsoleUser,
  launchChromium,
  signInConsole,
} from './support/console-browser';

// Whole user journeys in a real browser: slow on a loaded machine, so each test gets five minutes.
jest.setTimeout(300_000);

const SEEDED = 100_000;

/** OAuth clients, webhook attempt history, the cluster's figures and hostname search at 100,000 domains. */
describe('the console: OAuth clients, attempt history, cluster and search in headless Chromium', () => {
  const clock = new ManualClock(new Date());
  let t: TestApp;
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let base: string;
  let ws: string;
  let key: string;
  const operator = { email: 'ops@example.com', password: 'operator-password-1' };
  const auth = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    receiver = await startWebhookReceiver();
    t = await startTestAppWithClock(clock, { ...domainEnv(dns.address), OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    ({ apiKey: key, workspaceId: ws } = await createWorkspaceVia(t.server));
    await createConsoleUser(t, { ...operator, operator: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  it('registers an OAuth client (secret once) that gets tokens, refuses bad input, and revokes it', async () => {
    const page = await signInConsole(browser, base, operator);
    await page.goto(`${base}/console/w/${ws}/oauth-clients`);
    await page.getByText('No OAuth clients').waitFor();
    await consoleShot(page, 'oauth-clients-empty');

    // No scope chosen: the admin API's own rule, shown beside the form.
    await page.getByLabel('Name').fill('Billing sync');
    await page.getByRole('button', { name: 'Register client' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('scopes must contain at least 1 elements');

    await page.getByLabel('Name').fill('Billing sync');
    await page.getByLabel('domains:read').check();
    await page.getByLabel('webhooks:read').check();
    await page.getByRole('button', { name: 'Register client' }).click();
    const clientId = (await page.locator('#client-id').textContent())!.trim();
    const secret = (await page.locator('#client-secret').textContent())!.trim();
    await consoleShot(page, 'oauth-clients');
    const tokenRequest = () =>
      request(t.server)
        .post('/oauth/token')
        .auth(clientId, secret)
        .type('form')
        .send({ grant_type: 'client_credentials' });
    const granted = await tokenRequest().expect(200);
    expect(granted.body.scope.split(' ').sort()).toEqual(['domains:read', 'webhooks:read']);
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${granted.body.access_token}`).expect(200);
    // The listing never shows the secret again.
    await page.goto(`${base}/console/w/${ws}/oauth-clients`);
    await expect(page.locator('body').textContent()).resolves.not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke client Billing sync' }).click();
    await page.getByText('The client is revoked').waitFor();
    await tokenRequest().expect(401);
    await request(t.server).get('/v1/domains').set('authorization', `Bearer ${granted.body.access_token}`).expect(401);
    const admin = await request(t.server)
      .get(`/admin/workspaces/${ws}/oauth-clients`)
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    expect(admin.body.clients[0].revokedAt).not.toBeNull();
    await page.goto(`${base}/console/w/${ws}/audit`);
    const log = await page.locator('tbody').textContent();
    expect(log).toContain('oauth_client.created');
    expect(log).toContain('oauth_client.revoked');
    await page.context().close();
  });

  it("keeps every attempt of a delivery (bounded) and shows them on the delivery's page", async () => {
    const worker = t.app.get(DeliveryWorker);
    receiver.answer = () => ({ status: 503, body: 'maintenance' });
    const endpoint = (
      await request(t.server)
        .post('/v1/webhook-endpoints')
        .set(auth())
        .send({ url: `${receiver.url}/attempts`, events: ['domain.created'] })
        .expect(201)
    ).body.endpoint as { id: string };
    await request(t.server)
      .post('/v1/domains')
      .set(auth())
      .send({ hostname: 'attempts.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const delivery = async () =>
      (
        await t.db.query<{ id: string; status: string; attempts: number }>(
          'select id, status, attempts from webhook_deliveries where endpoint_id = $1',
          [endpoint.id],
        )
      )[0];
    const history = (id: string) =>
      t.db.query<{ id: string; status_code: number; error: string; outcome: string }>(
        'select id, status_code, error, outcome from webhook_delivery_attempts where delivery_id = $1 order by id',
        [id],
      );
    // Each check runs the worker and moves the clock a day on, to the next retry, until dead-lettered.
    const untilDead = () =>
      eventually(
        async () => {
          const d = await delivery();
          if (d?.status !== 'dead_lettered') {
            await worker.runOnce();
            clock.advance(24 * 3600 * 1000);
          }
          return d?.status;
        },
        (status) => status === 'dead_lettered',
        { timeoutMs: 120_000, everyMs: 50, what: 'the delivery to be dead-lettered' },
      );
    await untilDead();
    const first = await delivery();
    const attempts = await history(first.id);
    expect(attempts).toHaveLength(first.attempts);
    expect(attempts.every((a) => a.status_code === 503 && a.error === 'HTTP 503: maintenance')).toBe(true);
    expect(attempts.map((a) => a.outcome)).toEqual([
      ...Array<string>(first.attempts - 1).fill('pending'),
      'dead_lettered',
    ]);

    const page = await signInConsole(browser, base, operator);
    await page.goto(`${base}/console/w/${ws}/webhooks/${endpoint.id}?status=dead_lettered`);
    // The last-attempt cell says the answer once.
    const cell = await page.locator('tbody tr').first().textContent();
    expect(cell).toContain('HTTP 503: maintenance');
    expect(cell).not.toContain('HTTP 503 HTTP 503');
    await page.getByRole('link', { name: 'domain.created' }).click();
    await page.getByRole('heading', { name: 'Attempt history' }).waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(first.attempts);
    await consoleShot(page, 'webhook-delivery');
    const deliveryUrl = page.url();

    // Replayed and failing for whole windows again: more than ATTEMPTS_KEPT attempts, the newest kept.
    let made = first.attempts;
    while (made <= ATTEMPTS_KEPT) {
      await page.getByRole('button', { name: 'Replay this event' }).click();
      await page.getByText('Replay queued').waitFor();
      await eventually(delivery, (d) => d.status === 'pending', { timeoutMs: 10_000, what: 'the replay' });
      await untilDead();
      made += (await delivery()).attempts;
      await page.goto(deliveryUrl);
    }
    const kept = await history(first.id);
    expect(kept).toHaveLength(ATTEMPTS_KEPT);
    expect(Number(kept[0].id)).toBeGreaterThan(Number(attempts[0].id));
    expect(kept[kept.length - 1].outcome).toBe('dead_lettered');
    await page.goto(deliveryUrl);
    await expect(page.locator('tbody tr').count()).resolves.toBe(ATTEMPTS_KEPT);

    // Deleting the endpoint deletes its deliveries and their history.
    await request(t.server).delete(`/v1/webhook-endpoints/${endpoint.id}`).set(auth()).expect(200);
    expect(await history(first.id)).toHaveLength(0);
    await page.context().close();
  });

  it('shows the cluster: shards, monitor rate and lag, webhook backlog', async () => {
    const page = await signInConsole(browser, base, operator);
    await page.goto(`${base}/console/cluster`);
    await page.getByText('every shard has an owner').waitFor();
    // The shard numbers are folded: a count of ranges, the numbers only when asked for.
    const shards = page.locator('details.shards').first();
    await expect(shards.locator('summary').textContent()).resolves.toMatch(/^\s*\d+ ranges?\s*$/);
    await expect(shards.locator('code').isVisible()).resolves.toBe(false);
    await shards.locator('summary').click();
    await expect(shards.locator('code').isVisible()).resolves.toBe(true);
    const monitor = page.locator('section', { has: page.getByRole('heading', { name: 'Monitor' }) });
    await expect(monitor.textContent()).resolves.toMatch(/probes\/s/);
    await expect(monitor.textContent()).resolves.toMatch(/oldest overdue probe/);
    // The node reports its own probe rate: the domains created above were probed within the last minute.
    const status = await request(t.server)
      .get('/admin/cluster')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    expect(Object.keys(status.body.nodes[0].rates).sort()).toEqual(
      expect.arrayContaining(['monitorProbes', 'webhookAttempts']),
    );
    await consoleShot(page, 'cluster-figures');
    await page.context().close();
  });

  it(`finds hostnames by substring with ${SEEDED.toLocaleString('en')} domains in a workspace: about as fast as in a small one, under a second on a machine not busy`, async () => {
    const big = await createWorkspaceVia(t.server);
    const template = (
      await request(t.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${big.apiKey}`)
        .send({ hostname: 'template.customer-b.com', originUrl: ORIGIN_URL })
        .expect(201)
    ).body.domain as { id: string };
    const seededAt = Date.now();
    // One statement, in the shape the domain store writes. The monitor loaded its schedule when it took
    // the shards on, so it leaves them be.
    await t.db.query(
      `with seeded as (
         insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at)
         select s.id, d.workspace_id, s.hostname, d.shard, d.status, d.monitor_status,
                d.state || jsonb_build_object('id', s.id, 'hostname', s.hostname,
                  'createdAt', to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
                1, s.created_at, s.created_at
           from domains d,
                lateral (select 'dom_seed' || lpad(i::text, 6, '0') as id,
                                'store' || i || '.customer' || (i % 997) || '.example' as hostname,
                                date_trunc('second', d.created_at) - i * interval '1 second' as created_at
                           from generate_series(1, $2::int) as i) s
          where d.id = $1
         returning id
       )
       select count(*) from seeded`,
      [template.id, SEEDED],
    );
    await t.db.query('analyze domains');
    const seedMs = Date.now() - seededAt;

    const page = await signInConsole(browser, base, operator);
    const loadOnce = async (path: string, workspaceId: string) => {
      const started = performance.now();
      const response = await page.goto(`${base}/console/w/${workspaceId}/domains${path}`);
      await page.getByRole('heading', { name: 'Domains', exact: true }).waitFor();
      expect(response!.status()).toBe(200);
      return performance.now() - started;
    };
    // The fastest of three loads: a slow query is slow every time, a busy machine only some of the time.
    const fastest = async (once: () => Promise<number>) =>
      Math.round(Math.min(await once(), await once(), await once()));
    const timed = (path: string, workspaceId = big.workspaceId) => fastest(() => loadOnce(path, workspaceId));
    // The same page of a workspace with a handful of domains, in this run: what the machine's load adds.
    const cpu = startCpuAccounting();
    const small = await timed('', ws);
    const figures: Record<string, number> = {};
    const measure = async (name: string, path: string, rows: number) => {
      figures[name] = await timed(path);
      await expect(page.locator('tbody tr').count()).resolves.toBe(rows);
    };
    await measure('first page', '', 25);
    await measure('substring, 1 match ("store99999.")', '?q=store99999.', 1);
    await measure('substring, ~100 matches ("customer42.")', '?q=customer42.', 25);
    await measure('substring, every domain ("example")', '?q=example', 25);
    await measure('substring, no match ("nothing-here")', '?q=nothing-here', 0);
    await measure('substring and status ("mer7", verified)', '?q=mer7&status=verified', 0);
    // The next page continues where the first stopped (keyset paging on the search).
    let firstPage: string[] = [];
    figures['substring, next page'] = await fastest(async () => {
      await page.goto(`${base}/console/w/${big.workspaceId}/domains?q=customer42.`);
      firstPage = await page.locator('tbody td a').allTextContents();
      const started = performance.now();
      await page.getByRole('link', { name: 'Next page →' }).click();
      await page.getByRole('link', { name: 'First page' }).waitFor();
      return performance.now() - started;
    });
    const secondPage = await page.locator('tbody td a').allTextContents();
    expect(secondPage).toHaveLength(25);
    expect(secondPage.filter((h) => firstPage.includes(h))).toEqual([]);
    expect([...firstPage, ...secondPage].every((h) => h.includes('customer42.'))).toBe(true);
    await consoleShot(page, 'domains-search');

    const cpuDuringPages = cpu.stop();
    writeFileSync(
      join(CONSOLE_ARTIFACTS, 'console-search-figures.json'),
      JSON.stringify(
        { domains: SEEDED + 1, seedMs, pageMs: figures, smallWorkspacePageMs: small, cpuDuringPages },
        null,
        2,
      ),
    );
    console.log(`console at ${SEEDED + 1} domains (ms, page load in Chromium):`, figures, { seedMs, small });
    // No page of the big workspace much slower than the small one's (the fastest of three loads each). A
    // search that scans every row is 0.6 s or more slower per page on an idle machine, where the small page
    // is 0.1-0.2 s; at load 13-15 pages of 1.3-3.5 s were seen beside a 1.3 s small one. So: a loose bound
    // on any machine, the close one (and the named second) where no other work competed; the repository's
    // own bound below tells an index from a scan on any machine.
    for (const [name, ms] of Object.entries(figures))
      expect([name, ms, ms <= 4 * small + 1000]).toEqual([name, ms, true]);
    judgeTimes(cpuDuringPages, 'console search pages', () => {
      for (const [name, ms] of Object.entries(figures))
        expect([name, ms, ms <= 2 * small + 250 && ms < 1000]).toEqual([name, ms, true]);
    });
    // And the database's part, through the repository the page reads: a search that scans every row (no trigram
    // index) loaded in 0.75-1.6 s, where the indexed query takes 10-25 ms; a search every domain matches read all
    // 100,000 rows through the trigram index (158 ms, a 1.3 s page under the suite's load) until the planner had
    // statistics on lower(hostname) and walked the list index instead (0.2 ms).
    const repository = t.app.get(DomainRepository, { strict: false });
    const cpuDuringQueries = startCpuAccounting();
    const queryMs: Record<string, number> = {};
    for (const q of ['store99999.', 'customer42.', 'example', 'nothing-here']) {
      const ms = await fastest(async () => {
        const started = performance.now();
        await repository.list(big.workspaceId, { hostnameContains: q, limit: 25 });
        return performance.now() - started;
      });
      queryMs[q] = ms;
    }
    console.log('the same searches in the repository alone (ms):', queryMs);
    // On any machine, under the 0.75 s a scan takes on an idle one (183 ms was seen at load 17)...
    for (const [q, ms] of Object.entries(queryMs)) expect([q, ms, ms < 500]).toEqual([q, ms, true]);
    // ...and the indexed query's own bound where nothing else competed for the cores.
    judgeTimes(cpuDuringQueries.stop(), 'console search queries', () => {
      for (const [q, ms] of Object.entries(queryMs))
        expect([q, ms, ms < (q === 'example' ? 50 : 100)]).toEqual([q, ms, true]);
    });
    await page.context().close();
  });
});

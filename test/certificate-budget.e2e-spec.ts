import { CertificateManager } from '@app/certificates';
import {
  AcmeProxy,
  CERTIFICATE_EDGE as EDGE,
  CertificateStack,
  ORIGIN_URL,
  eventually,
  proxiedPebbles,
  startCertificateStack,
} from '@test/support';
import request from 'supertest';

const BULK = 12;

/**
 * The issuance budget and the fair queue, against a real Pebble: the account may start 3 new orders
 * at once and one more every 2 s, two orders run at a time. One workspace imports 12 domains; another
 * connects one right after. Its certificate must not wait for the whole import.
 */
describe('certificates: the budget holds a bulk import without starving another workspace', () => {
  const cas: Record<string, AcmeProxy> = {};
  let stack: CertificateStack;
  beforeAll(async () => {
    stack = await startCertificateStack({
      issuers: proxiedPebbles(
        [
          {
            name: 'letsencrypt',
            caaIdentities: ['letsencrypt.org'],
            settings: { limits: { new_orders: { capacity: 3, periodSeconds: 6 } } },
          },
        ],
        cas,
      ),
      env: { ACME_CONCURRENCY: '2' },
      waitTimeoutMs: 60_000,
    });
  });
  afterAll(async () => stack?.close());

  it('serves the other workspace within a turn, keeps every order inside the budget, and finishes the import', async () => {
    const { dns, t, auth } = stack;
    // When each domain's order was asked for: the manager's own entry point, called through unchanged.
    const asked = new Map<string, number>();
    const manager = t.app.get(CertificateManager);
    const passOn = manager.request.bind(manager);
    jest.spyOn(manager, 'request').mockImplementation((order) => {
      if (!asked.has(order.hostname)) asked.set(order.hostname, Date.now());
      passOn(order);
    });
    const importer = Array.from({ length: BULK }, (_, i) => `store-${i}.bulk-import.com`);
    for (const hostname of [...importer, 'solo.other-customer.com'])
      dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE }]);
    const bulk = await request(t.server)
      .post('/v1/domains/bulk')
      .set(auth)
      .send({ domains: importer.map((hostname) => ({ hostname, originUrl: ORIGIN_URL })) })
      .expect(200);
    const other = await stack.workspace('other customer');
    const solo = await request(t.server)
      .post('/v1/domains')
      .set(other)
      .send({ hostname: 'solo.other-customer.com', originUrl: ORIGIN_URL })
      .expect(201);
    const importIds = (bulk.body.results as Array<{ domain?: { id: string } }>).map((r) => r.domain!.id);
    expect(importIds).toHaveLength(BULK);
    const soloId = solo.body.domain.id as string;

    const readAll = async () =>
      Promise.all(
        importIds.map(
          async (id) => (await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain,
        ),
      );
    const soloDone = await eventually(
      async () => (await request(t.server).get(`/v1/domains/${soloId}`).set(other).expect(200)).body.domain,
      (d) => d.status === 'verified',
      { timeoutMs: 60_000, everyMs: 200, what: 'the other workspace to get its certificate' },
    );
    expect(soloDone.certificate.attempts).toEqual([expect.objectContaining({ outcome: 'issued' })]);

    const all = await eventually(readAll, (ds) => ds.every((d) => d.status === 'verified'), {
      timeoutMs: 90_000,
      everyMs: 500,
      what: 'the whole import to be verified',
    });
    // The CA saw exactly one order per domain, no duplicates.
    const orders = cas.letsencrypt.orders();
    const ordered = orders.map((o) => o.identifiers[0].value);
    expect(new Set(ordered).size).toBe(ordered.length);
    // Round robin, judged from the moment the other workspace's order was asked of the certificate manager: of
    // the import orders asked for before it and not yet at the CA then, one goes first (the
    // rotation's turn) besides the two a full `ACME_CONCURRENCY` may already have been starting; first in,
    // first out sends all of them first. Not what a read sees, nor issue times (they also depend on how long
    // the CA validates each), nor the position alone (the monitor's probes decide when each is asked for).
    const soloAsked = asked.get('solo.other-customer.com')!;
    const soloOrder = orders.find((o) => o.identifiers[0].value === 'solo.other-customer.com')!;
    const waiting = orders.filter(
      (o) => o !== soloOrder && asked.get(o.identifiers[0].value)! < soloAsked && o.at > soloAsked,
    );
    const aheadOfIt = waiting.filter((o) => o.at < soloOrder.at).length;
    console.log(
      `the other workspace's order: asked for while ${waiting.length} import orders waited, started after ` +
        `${aheadOfIt} of them (position ${ordered.indexOf('solo.other-customer.com')} of 13)`,
    );
    expect(aheadOfIt).toBeLessThanOrEqual(3);
    // Waiting for the budget is not a failure: no domain was told the order failed.
    expect(
      all.flatMap((d) => d.certificate.attempts).filter((a: { outcome: string }) => a.outcome !== 'issued'),
    ).toEqual([]);
    // The account's bucket: 3 at once, then one per 2 s; 13 orders take at least (13 - 3) * 2 s.
    const [{ tokens }] = await t.db.query<{ tokens: number }>(
      "select tokens from issuance_buckets where key = 'new_orders:letsencrypt'",
    );
    expect(tokens).toBeLessThan(3);
  });
});

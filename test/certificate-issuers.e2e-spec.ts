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

const RATE_LIMITED = 'urn:ietf:params:acme:error:rateLimited';

/**
 * Two CAs, each a real Pebble behind the ACME proxy: `primary` stands in for Let's Encrypt (30-second
 * certificates, ARI, a `shortlived` profile), `backup` for Google Trust Services (External Account
 * Binding required). The service picks by CAA and fails over.
 */
describe('certificates from several CAs: CAA, failover, ARI', () => {
  const cas: Record<string, AcmeProxy> = {};
  let stack: CertificateStack;
  beforeAll(async () => {
    stack = await startCertificateStack({
      issuers: proxiedPebbles(
        [
          {
            name: 'primary',
            caaIdentities: ['letsencrypt.org'],
            validitySeconds: 30,
            profiles: { shortlived: '6-day certificates', classic: '90-day certificates' },
            settings: { profile: 'shortlived' },
          },
          { name: 'backup', caaIdentities: ['pki.goog'], eab: 'right' },
        ],
        cas,
      ),
      waitTimeoutMs: 30_000,
    });
  });
  afterAll(async () => stack?.close());

  const connect = async (hostname: string) => {
    stack.dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(stack.t.server)
      .post('/v1/domains')
      .set(stack.auth)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    return body.domain.id as string;
  };
  const ordersFor = (ca: string, hostname: string) =>
    cas[ca].orders().filter((o) => o.identifiers.some((i) => i.value === hostname));

  it('issues from the second CA when CAA allows only it', async () => {
    stack.dns.setRecords('only-google.com', [{ type: 'CAA', data: { flags: 0, tag: 'issue', value: 'pki.goog' } }]);
    const id = await connect('shop.only-google.com');
    const domain = await stack.waitFor(id, (d) => d.status === 'verified');
    expect(domain.certificate).toMatchObject({
      issuer: 'backup',
      errorCode: null,
      attempts: [{ issuer: 'backup', outcome: 'issued' }],
    });
    expect(ordersFor('primary', 'shop.only-google.com')).toEqual([]);
    expect(ordersFor('backup', 'shop.only-google.com')).toHaveLength(1);
  });

  it('fails over to the next CA on a rate limit, and shows both attempts', async () => {
    cas.primary.failNextOrders(1, {
      type: RATE_LIMITED,
      detail: 'too many new orders',
      status: 429,
      retryAfterSeconds: 2,
    });
    const id = await connect('failover.customer-a.com');
    const domain = await stack.waitFor(id, (d) => d.status === 'verified');
    expect(domain.certificate.issuer).toBe('backup');
    expect(domain.certificate.attempts).toEqual([
      expect.objectContaining({ issuer: 'primary', outcome: 'failed', code: 'ca_rate_limited' }),
      expect.objectContaining({ issuer: 'backup', outcome: 'issued' }),
    ]);
    expect(domain.certificate.attempts[0].message).toMatch(/primary asked us to slow down \(.*too many new orders/);
    // The CA asked for 2 s: the pause ends before the next test orders from it.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
  });

  it('asks for the profile, renews inside the ARI window and names the replaced certificate', async () => {
    const id = await connect('ari.customer-a.com');
    const first = await stack.waitFor(id, (d) => d.status === 'verified');
    expect(first.certificate.issuer).toBe('primary');
    const [order] = ordersFor('primary', 'ari.customer-a.com');
    expect(order).toMatchObject({ profile: 'shortlived' });
    expect(order.replaces).toBeUndefined();
    const issued = cas.primary
      .certificates()
      .find((c) => c.pem.length && c.notAfter.toISOString() === first.certificate.expiresAt);
    expect(issued).toBeDefined();
    expect(cas.primary.renewalInfoRequests(issued!.certId)).toBeGreaterThan(0);
    // The proxy's window for a 30 s certificate: from 7/12 to 2/3 of its lifetime (17.5-20 s).
    const lifetime = issued!.notAfter.getTime() - issued!.notBefore.getTime();
    const renewAt = Date.parse(first.certificate.renewAt);
    expect(renewAt).toBeGreaterThanOrEqual(issued!.notBefore.getTime() + (lifetime * 7) / 12 - 1_000);
    expect(renewAt).toBeLessThanOrEqual(issued!.notBefore.getTime() + (lifetime * 2) / 3 + 1_000);

    const renewal = await eventually(
      async () => ordersFor('primary', 'ari.customer-a.com'),
      (orders) => orders.length >= 2,
      { timeoutMs: 40_000, everyMs: 250, what: 'the renewal order' },
    );
    expect(renewal[1]).toMatchObject({ replaces: issued!.certId, profile: 'shortlived' });
    // Not before the planned time (a second of slack for clocks and the probe interval).
    const renewed = await stack.waitFor(id, (d) => d.certificate.expiresAt !== first.certificate.expiresAt);
    expect(renewed).toMatchObject({ status: 'verified', monitorStatus: 'active_ssl' });
    expect(Date.now()).toBeGreaterThanOrEqual(renewAt - 1_000);
  });

  it('asks the CA again when it said, and renews at once when the CA moved the window into the past', async () => {
    const hostname = 'shop.only-google.com';
    const [row] = await stack.t.db.query<{ domain_id: string; cert_id: string; cert_pem: string }>(
      'select domain_id, cert_id, cert_pem from certificates where hostname = $1',
      [hostname],
    );
    const before = ordersFor('backup', hostname).length;
    // The CA revokes early (a key compromise, a mis-issuance): its renewal window now lies in the past.
    cas.backup.setRenewalWindow(row.cert_pem, {
      start: new Date(Date.now() - 60_000),
      end: new Date(Date.now() - 1_000),
    });
    // Due for its next renewal-information check now instead of in hours (the CA's Retry-After).
    await stack.t.db.query('update certificates set ari_check_at = now() where domain_id = $1', [row.domain_id]);
    const renewal = await eventually(
      async () => ordersFor('backup', hostname),
      (orders) => orders.length > before,
      { timeoutMs: 60_000, everyMs: 500, what: 'the renewal the moved window calls for' },
    );
    expect(renewal[renewal.length - 1].replaces).toBe(row.cert_id);
    const renewed = await stack.waitFor(row.domain_id, (d) => d.certificate.attempts.length === 2);
    expect(renewed).toMatchObject({ status: 'verified', monitorStatus: 'active_ssl' });
    expect(renewed.certificate.issuer).toBe('backup');
  });
});

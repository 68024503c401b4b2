import {
  CERTIFICATE_EDGE as EDGE,
  CertificateStack,
  ORIGIN_URL,
  eventually,
  sleep,
  startCertificateStack,
} from '@test/support';
import request from 'supertest';

/** One stack per describe: Pebble's certificate lifetime is set when it starts. */
function withStack(validitySeconds?: number): () => CertificateStack {
  let stack: CertificateStack;
  beforeAll(async () => {
    stack = await startCertificateStack({ validitySeconds, waitTimeoutMs: 30_000 });
  });
  afterAll(async () => stack?.close());
  return () => stack;
}

describe('certificates over ACME (Pebble): issuance', () => {
  const current = withStack();

  it('takes a domain from pending to verified with active_ssl once DNS is right', async () => {
    const { dns, t, auth, waitFor } = current();
    dns.setRecords('secure.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'secure.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const domain = await waitFor(body.domain.id, (d) => d.status === 'verified');
    expect(domain).toMatchObject({ monitorStatus: 'active_ssl', monitorMessage: 'Your site is live' });
    expect(Date.parse(domain.certificate.expiresAt)).toBeGreaterThan(Date.now());
    const [cert] = await t.db.query(
      'select hostname, cert_pem, key_sealed, not_after from certificates where domain_id = $1',
      [body.domain.id],
    );
    expect(cert.hostname).toBe('secure.customer-a.com');
    expect(cert.cert_pem).toContain('BEGIN CERTIFICATE');
    expect(cert.key_sealed).not.toContain('PRIVATE KEY');
    const types = await t.db.query<{ type: string }>(
      'select type from outbox_events where aggregate_id = $1 order by created_at',
      [body.domain.id],
    );
    // DNS was right when it was connected: it was created issuing (pending_ssl), then verified.
    expect(types.map((r) => r.type)).toEqual(['domain.created', 'domain.verified']);
    expect(body.domain.monitorStatus).toBe('pending_ssl');
    const challenges = await t.db.query('select * from acme_challenges');
    expect(challenges).toEqual([]);

    // Deleting removes the certificate with the domain.
    await request(t.server).delete(`/v1/domains/${body.domain.id}`).set(auth).expect(200);
    expect(await t.db.query('select 1 from certificates where domain_id = $1', [body.domain.id])).toEqual([]);
  });

  it('fails with ssl_failed and the reason when CAA forbids the CAs, without asking the CA', async () => {
    const { dns, t, auth, waitFor } = current();
    dns.setRecords('shop.caa-blocked.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'shop.caa-blocked.com', originUrl: ORIGIN_URL })
      .expect(201);
    expect(body.warnings[0].code).toBe('caa_blocks_letsencrypt');
    const domain = await waitFor(body.domain.id, (d) => d.monitorStatus === 'ssl_failed');
    expect(domain.status).toBe('pending');
    expect(domain.monitorMessage).toMatch(/^Certificate issuance failed: The CAA records on caa-blocked.com/);
    // The exact record that would allow our CA.
    expect(domain.monitorMessage).toContain('caa-blocked.com. CAA 0 issue "letsencrypt.org"');
    expect(domain.certificate).toMatchObject({
      errorCode: 'caa_forbids',
      attempts: [{ issuer: 'caa', code: 'caa_forbids' }],
    });
    expect(domain.certificate.retryAt).toEqual(expect.any(String));
    // Time must pass: the failure must hold (a retry waits for retryAt), and nothing signals that.
    await sleep(2_500);
    const again = (await request(t.server).get(`/v1/domains/${body.domain.id}`).set(auth).expect(200)).body.domain;
    expect(again.monitorStatus).toBe('ssl_failed');
  });
});

// Renewal: Pebble issues 40-second certificates, renewed when between a half and a third of that is left.
describe('certificates over ACME (Pebble): renewal', () => {
  const current = withStack(40);

  it('renews a short-lived certificate inside the renewal window and says so with domain.monitor_updated', async () => {
    const { dns, t, auth, waitFor } = current();
    dns.setRecords('renew.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'renew.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const first = await waitFor(body.domain.id, (d) => d.status === 'verified');
    const renewed = await eventually(
      () =>
        t.db.query<{ data: { certificateRenewed?: boolean } }>(
          "select data from outbox_events where aggregate_id = $1 and type = 'domain.monitor_updated' and (data->>'certificateRenewed')::boolean",
          [body.domain.id],
        ),
      (rows) => rows.length > 0,
      { timeoutMs: 45_000, everyMs: 250, what: 'a domain.monitor_updated with certificateRenewed' },
    );
    expect(renewed.length).toBeGreaterThan(0);
    const after = (await request(t.server).get(`/v1/domains/${body.domain.id}`).set(auth).expect(200)).body.domain;
    expect(after).toMatchObject({ status: 'verified', monitorStatus: 'active_ssl' });
    expect(Date.parse(after.certificate.expiresAt)).toBeGreaterThanOrEqual(Date.parse(first.certificate.expiresAt));
  });
});

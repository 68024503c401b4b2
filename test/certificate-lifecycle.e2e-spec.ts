import { X509Certificate } from 'node:crypto';
import {
  CERTIFICATE_EDGE as EDGE,
  CertificateStack,
  ORIGIN_URL,
  edgeRequest,
  eventually,
  servedCertificate,
  issueCertificate,
  probeTimes,
  startCertificateStack,
  startLoopbackOrigin,
  storeCertificate,
} from '@test/support';
import { metricsRegistry } from '@app/metrics';
import request from 'supertest';

describe('certificate lifecycle: what is served, www twins', () => {
  let stack: CertificateStack;
  beforeAll(async () => {
    stack = await startCertificateStack({
      env: {
        SERVED_CHECK_INTERVAL_SECONDS: '2', // every probe reads the served certificate
        OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8', // the loopback origin below
      },
    });
  });
  afterAll(async () => stack?.close());

  it('serves the certificate Pebble issued by SNI and proxies to the origin; deletion removes the route', async () => {
    const { dns, t, auth, httpsPort, waitFor } = stack;
    const origin = await startLoopbackOrigin();
    try {
      dns.setRecords('live.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
      const { body } = await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .send({ hostname: 'live.customer-a.com', originUrl: origin.url })
        .expect(201);
      await waitFor(body.domain.id, (d) => d.status === 'verified');
      const [row] = await t.db.query<{ cert_pem: string }>('select cert_pem from certificates where domain_id = $1', [
        body.domain.id,
      ]);
      const res = await edgeRequest('https', { port: httpsPort, hostname: 'live.customer-a.com', path: '/p?q=1' });
      expect(res.status).toBe(200);
      expect(res.fingerprint256).toBe(new X509Certificate(row.cert_pem).fingerprint256);
      expect(origin.requests.map((r) => r.url)).toContain('/p?q=1');

      await request(t.server).delete(`/v1/domains/${body.domain.id}`).set(auth).expect(200);
      // Gone from the edge's replica within a second: the handshake fails (no route, no certificate).
      await eventually(
        () =>
          edgeRequest('https', { port: httpsPort, hostname: 'live.customer-a.com', path: '/' }).then(
            () => 'served',
            () => 'refused',
          ),
        (outcome) => outcome === 'refused',
        { timeoutMs: 1_000, everyMs: 25, what: 'the handshake of the deleted hostname refused' },
      );
    } finally {
      await origin.close();
    }
  });

  it('names the www twin of a redirectWww domain in its certificate when the twin points at the edge', async () => {
    const { dns, t, auth, httpsPort, waitFor } = stack;
    dns.setRecords('twin.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    dns.setRecords('www.twin.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'twin.customer-a.com', originUrl: ORIGIN_URL, redirectWww: true })
      .expect(201);
    await waitFor(body.domain.id, (d) => d.status === 'verified');
    const [row] = await t.db.query<{ cert_pem: string }>('select cert_pem from certificates where domain_id = $1', [
      body.domain.id,
    ]);
    expect(new X509Certificate(row.cert_pem).subjectAltName).toBe(
      'DNS:twin.customer-a.com, DNS:www.twin.customer-a.com',
    );
    // The edge presents it for the twin too, so the HTTPS redirect of the twin works in a browser.
    const served = await servedCertificate(httpsPort, 'www.twin.customer-a.com');
    expect(served.checkHost('www.twin.customer-a.com')).toBe('www.twin.customer-a.com');
  });

  it('leaves a twin without DNS out of the order instead of failing it', async () => {
    const { dns, t, auth, waitFor } = stack;
    dns.setRecords('solo.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'solo.customer-a.com', originUrl: ORIGIN_URL, redirectWww: true })
      .expect(201);
    await waitFor(body.domain.id, (d) => d.status === 'verified');
    const [row] = await t.db.query<{ cert_pem: string }>('select cert_pem from certificates where domain_id = $1', [
      body.domain.id,
    ]);
    expect(new X509Certificate(row.cert_pem).subjectAltName).toBe('DNS:solo.customer-a.com');
  });

  it('shows pending_ssl while the hostname serves a certificate that does not name it, active_ssl once fixed', async () => {
    const { dns, t, auth, waitFor } = stack;
    dns.setRecords('served.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'served.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const id = body.domain.id as string;
    await waitFor(id, (d) => d.status === 'verified' && d.monitorStatus === 'active_ssl');
    const [good] = await t.db.query('select * from certificates where domain_id = $1', [id]);

    // The edge ends up serving another name's certificate (a bad deploy, a stale cache).
    const wrong = issueCertificate({ hostnames: ['someone-else.example.net'] });
    await storeCertificate(t.db, { id, hostname: 'served.customer-a.com' }, wrong);
    await request(t.server).post(`/v1/domains/${id}/check`).set(auth).expect(200); // edges re-read the name
    const checked = (await request(t.server).post(`/v1/domains/${id}/check`).set(auth).expect(200)).body.domain;
    expect(checked).toMatchObject({ status: 'verified', monitorStatus: 'pending_ssl' });
    const updates = await t.db.query(
      "select 1 from outbox_events where aggregate_id = $1 and type = 'domain.monitor_updated' and data->'domain'->>'monitorStatus' = 'pending_ssl'",
      [id],
    );
    expect(updates.length).toBeGreaterThan(0);

    await t.db.query('update certificates set cert_pem = $2, key_sealed = $3 where domain_id = $1', [
      id,
      good.cert_pem,
      good.key_sealed,
    ]);
    await request(t.server).post(`/v1/domains/${id}/check`).set(auth).expect(200);
    // The monitor sees the good certificate again on its own.
    await waitFor(id, (d) => d.monitorStatus === 'active_ssl');
  });
});

describe('certificate lifecycle: expiry without renewal', () => {
  let stack: CertificateStack;
  beforeAll(async () => {
    stack = await startCertificateStack({
      validitySeconds: 12,
      env: { SERVED_CHECK_INTERVAL_SECONDS: '2', OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' },
    });
  });
  afterAll(async () => stack?.close());

  it('expires a verified domain with ssl_expired and domain.expired when its certificate lapses unrenewed', async () => {
    const { dns, issuers, t, auth, waitFor } = stack;
    dns.setRecords('lapse.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'lapse.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const id = body.domain.id as string;
    const verified = await waitFor(id, (d) => d.status === 'verified');
    // The CA goes away: every renewal attempt now fails, and the short certificate runs out.
    await issuers.stop();
    const expired = await waitFor(id, (d) => d.status === 'expired', 60_000);
    expect(expired.monitorStatus).toBe('ssl_expired');
    expect(Date.parse(expired.certificate.expiresAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(expired.certificate.expiresAt)).toBeGreaterThanOrEqual(
      Date.parse(verified.certificate.expiresAt),
    );
    const events = await t.db.query<{ type: string }>(
      'select type from outbox_events where aggregate_id = $1 order by created_at',
      [id],
    );
    expect(events.map((e) => e.type)).toContain('domain.expired');
    expect(events.map((e) => e.type).filter((type) => type === 'domain.expired')).toHaveLength(1);
  });
});

describe('certificate lifecycle: the served certificate is read after a change, not at every probe', () => {
  let stack: CertificateStack;
  // SERVED_CHECK_INTERVAL_SECONDS at its default (a day), probes every 2 s.
  beforeAll(async () => (stack = await startCertificateStack({})));
  afterAll(async () => stack?.close());

  /** The monitor's reads of served certificates so far, any outcome. */
  const reads = async () => {
    const metric = await metricsRegistry.getSingleMetric('monitor_served_certificate_checks_total')?.get();
    return (metric?.values ?? []).reduce((sum, value) => sum + value.value, 0);
  };

  it('reads what the edge serves at the first probe after the certificate is issued, then not at every probe', async () => {
    const { dns, t, auth, waitFor } = stack;
    const atStart = await reads(); // the file's other stacks read some, with a 2 s interval
    dns.setRecords('reads.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
    const { body } = await request(t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname: 'reads.customer-a.com', originUrl: ORIGIN_URL })
      .expect(201);
    const id = body.domain.id as string;
    await waitFor(id, (d) => d.status === 'verified' && d.monitorStatus === 'active_ssl');
    // The new certificate marked the domain; the monitor's next probe reads the edge and ends the mark.
    const pending = async () =>
      (
        await t.db.query<{ p: boolean | null }>("select state->'servedCheckPending' as p from domains where id = $1", [
          id,
        ])
      )[0].p;
    await eventually(pending, (p) => p === null, { timeoutMs: 20_000, what: 'the served read after issuance' });
    expect(await reads()).toBeGreaterThan(atStart);
    // The next probes (2 s apart) read nothing: the daily read of this domain is hours away.
    const before = await reads();
    const probed = await waitForProbes(stack, 'reads.customer-a.com', 3);
    expect(probed).toBeGreaterThanOrEqual(3);
    expect(await reads()).toBe(before);
  });
});

/** Waits until the monitor has probed `hostname` `count` more times (`probeTimes`). */
async function waitForProbes(stack: CertificateStack, hostname: string, count: number): Promise<number> {
  const from = Date.now();
  const seen = () => probeTimes(stack.dns, hostname, from).length;
  await eventually(seen, (n) => n >= count, { timeoutMs: 30_000, what: `${count} probes of ${hostname}` });
  return seen();
}

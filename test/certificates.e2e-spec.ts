import { createServer, Server } from 'node:http';
import {
  DnsServer,
  ORIGIN_URL,
  Pebble,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainZones,
  freePort,
  startDnsServer,
  startPebble,
  startTestApp,
} from '@test/support';
import request from 'supertest';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EDGE = 'edge.saas-test.net';

/** Until the edge answers HTTP-01 itself: a responder reading the same table the edge reads. */
function challengeResponder(t: TestApp, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const token = /^\/\.well-known\/acme-challenge\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    void t.db
      .query<{ key_authorization: string }>('select key_authorization from acme_challenges where token = $1', [
        token ?? '',
      ])
      .then((rows) => {
        res.writeHead(rows[0] ? 200 : 404, { 'content-type': 'text/plain' });
        res.end(rows[0]?.key_authorization ?? 'not found');
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

// Renewal: Pebble issues one-hour certificates, inside a one-day renewal window from the start.
describe.each([
  ['issuance', {}, undefined],
  ['renewal', { CERT_RENEW_DAYS: '1' }, 3600],
])('certificates over ACME (Pebble): %s', (scenario, extraEnv: Record<string, string>, validity?: number) => {
  let dns: DnsServer;
  let pebble: Pebble;
  let t: TestApp;
  let responder: Server | undefined;
  let auth: { authorization: string };

  beforeAll(async () => {
    dns = await startDnsServer({ ...domainZones(), [EDGE]: [{ type: 'A', data: '127.0.0.1' }] });
    const httpPort = await freePort();
    pebble = await startPebble({ dnsServer: dns.address, httpPort, certificateValidityPeriod: validity });
    t = await startTestApp({
      env: {
        DNS_RESOLVERS: dns.address,
        EDGE_CNAME_TARGET: EDGE,
        EDGE_IPV4: '127.0.0.1',
        EDGE_HTTP_PORT: String(httpPort),
        EDGE_HTTPS_PORT: String(await freePort()),
        ACME_DIRECTORY_URL: pebble.directoryUrl,
        ACME_CA_FILE: pebble.caFile,
        MONITOR_INTERVAL_SECONDS: '2',
        ...extraEnv,
      },
    });
    // The edge answers HTTP-01 when it runs in this app; otherwise (port free) a stand-in does.
    responder = await challengeResponder(t, httpPort).catch(() => undefined);
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'certs', paymentMethod: 'pm_card_visa' })
      .expect(201);
    auth = { authorization: `Bearer ${ws.body.apiKey}` };
  });
  afterAll(async () => {
    responder?.close();
    await t?.close();
    await pebble?.stop();
    await dns?.close();
  });

  async function waitFor(id: string, done: (domain: Record<string, any>) => boolean, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    let domain: Record<string, any> = {};
    while (Date.now() < deadline) {
      domain = (await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain;
      if (done(domain)) return domain;
      await sleep(250);
    }
    throw new Error(`Domain stayed ${JSON.stringify(domain)}`);
  }

  const onlyIn = (name: string) => (scenario === name ? it : it.skip);

  onlyIn('issuance')('takes a domain from pending to verified with active_ssl once DNS is right', async () => {
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
    expect(types.map((r) => r.type)).toEqual(['domain.created', 'domain.monitor_updated', 'domain.verified']);
    const challenges = await t.db.query('select * from acme_challenges');
    expect(challenges).toEqual([]);

    // Deleting removes the certificate with the domain.
    await request(t.server).delete(`/v1/domains/${body.domain.id}`).set(auth).expect(200);
    expect(await t.db.query('select 1 from certificates where domain_id = $1', [body.domain.id])).toEqual([]);
  });

  onlyIn('issuance')(
    'fails with ssl_failed and the reason when CAA forbids the CAs, without asking the CA',
    async () => {
      dns.setRecords('shop.caa-blocked.com', [{ type: 'CNAME', data: EDGE }]);
      const { body } = await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .send({ hostname: 'shop.caa-blocked.com', originUrl: ORIGIN_URL })
        .expect(201);
      expect(body.warnings[0].code).toBe('caa_blocks_letsencrypt');
      const domain = await waitFor(body.domain.id, (d) => d.monitorStatus === 'ssl_failed');
      expect(domain.status).toBe('pending');
      expect(domain.monitorMessage).toMatch(/^Certificate issuance failed: CAA records on caa-blocked.com/);
      expect(domain.certificate.retryAt).toEqual(expect.any(String));
      await sleep(2_500);
      const again = (await request(t.server).get(`/v1/domains/${body.domain.id}`).set(auth).expect(200)).body.domain;
      expect(again.monitorStatus).toBe('ssl_failed');
    },
  );

  onlyIn('renewal')(
    'renews a short-lived certificate inside the renewal window and says so with domain.monitor_updated',
    async () => {
      dns.setRecords('renew.customer-a.com', [{ type: 'CNAME', data: EDGE }]);
      const { body } = await request(t.server)
        .post('/v1/domains')
        .set(auth)
        .send({ hostname: 'renew.customer-a.com', originUrl: ORIGIN_URL })
        .expect(201);
      const first = await waitFor(body.domain.id, (d) => d.status === 'verified');
      const renewed = await t.db.query<{ data: { certificateRenewed?: boolean } }>(
        "select data from outbox_events where aggregate_id = $1 and type = 'domain.monitor_updated' and (data->>'certificateRenewed')::boolean",
        [body.domain.id],
      );
      for (let i = 0; i < 60 && !renewed.length; i++) {
        await sleep(250);
        renewed.push(
          ...(await t.db.query(
            "select data from outbox_events where aggregate_id = $1 and type = 'domain.monitor_updated' and (data->>'certificateRenewed')::boolean",
            [body.domain.id],
          )),
        );
      }
      expect(renewed.length).toBeGreaterThan(0);
      const after = (await request(t.server).get(`/v1/domains/${body.domain.id}`).set(auth).expect(200)).body.domain;
      expect(after).toMatchObject({ status: 'verified', monitorStatus: 'active_ssl' });
      expect(Date.parse(after.certificate.expiresAt)).toBeGreaterThanOrEqual(Date.parse(first.certificate.expiresAt));
    },
  );
});

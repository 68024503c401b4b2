import {
  DnsServer,
  EDGE_IP,
  EDGE_TARGET,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TEST_ENCRYPTION_KEY,
  TEST_SIGNING_SECRET,
  TestApp,
  TestDatabase,
  createTestDatabase,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  eventually,
  freeEdgePorts,
  startDnsServer,
  startProcess,
  startTestApp,
  stopAllProcesses,
  waitForUrl,
} from '@test/support';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { CloudflareFake, startCloudflareFake } from './fakes/cloudflare-server';
import { DigitalOceanFake, startDigitalOceanFake } from './fakes/digitalocean-server';

const CF_TOKEN = 'cf-token-SECRET-0123456789abcdefXYZ';
const DO_TOKEN = 'dop_v1_SECRET0123456789abcdef0123456789';

describe('POST /v1/domains/{id}/dns/apply', () => {
  let dns: DnsServer;
  let cloudflare: CloudflareFake;
  let digitalocean: DigitalOceanFake;
  let t: TestApp;
  let key: string;

  async function connect(hostname: string): Promise<string> {
    const res = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${key}`)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    return res.body.domain.id as string;
  }
  const apply = (id: string, body: object, token = key) =>
    request(t.server).post(`/v1/domains/${id}/dns/apply`).set('authorization', `Bearer ${token}`).send(body);
  const session = async (id: string) =>
    (
      await request(t.server)
        .post(`/v1/domains/${id}/connect-session`)
        .set('authorization', `Bearer ${key}`)
        .expect(200)
    ).body.connectSession.token as string;

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    cloudflare = await startCloudflareFake({
      tokens: {
        [CF_TOKEN]: { permissions: ['zone:read', 'dns:edit'] },
        'cf-read-only': { permissions: ['zone:read', 'dns:read'] },
        'cf-no-zone': { permissions: ['dns:edit'] },
        'cf-disabled': { permissions: ['zone:read', 'dns:edit'], status: 'disabled' },
      },
      zones: ['cf-customer.com', 'cf-apex.com'],
    });
    digitalocean = await startDigitalOceanFake({
      tokens: {
        [DO_TOKEN]: { scopes: ['domain:read', 'domain:create', 'domain:update', 'domain:delete'] },
        'do-read-only': { scopes: ['domain:read'] },
      },
      domains: ['do-customer.com', 'do-apex.com'],
    });
    t = await startTestApp({
      env: {
        ...domainEnv(dns.address),
        CLOUDFLARE_API_URL: cloudflare.url,
        DIGITALOCEAN_API_URL: digitalocean.url,
      },
    });
    key = (await createWorkspaceVia(t.server)).apiKey;
  });
  afterAll(async () => {
    await t?.close();
    await cloudflare?.close();
    await digitalocean?.close();
    await dns?.close();
  });

  it('Cloudflare: replaces only conflicting A/AAAA/CNAME at the hostname, proxied off; MX, TXT and other names survive', async () => {
    const host = 'shop.cf-customer.com';
    cloudflare.addRecord('cf-customer.com', { name: host, type: 'A', content: '198.51.100.1', proxied: true });
    cloudflare.addRecord('cf-customer.com', { name: host, type: 'AAAA', content: '2001:db8::1' });
    cloudflare.addRecord('cf-customer.com', { name: host, type: 'TXT', content: 'v=spf1 -all' });
    cloudflare.addRecord('cf-customer.com', { name: host, type: 'MX', content: 'mx.mail.example', priority: 10 });
    cloudflare.addRecord('cf-customer.com', {
      name: 'www.cf-customer.com',
      type: 'CNAME',
      content: 'elsewhere.example',
    });
    cloudflare.addRecord('cf-customer.com', { name: 'cf-customer.com', type: 'A', content: '198.51.100.2' });
    const id = await connect(host);
    // The customer points the name at the edge while the write happens; the re-check sees it.
    dns.setRecords(host, [{ type: 'CNAME', data: EDGE_TARGET }]);

    const res = await apply(id, { provider: 'cloudflare', token: CF_TOKEN }).expect(200);
    expect(res.body.applied).toEqual({
      provider: 'cloudflare',
      written: [
        { type: 'CNAME', name: host, value: EDGE_TARGET, ttl: 3600, id: expect.any(String), action: 'created' },
      ],
      removed: 2,
    });
    expect(res.body.domain).toMatchObject({ id, hostname: host, monitorStatus: 'pending_ssl' });
    expect(res.body.domain.lastCheckedAt).toEqual(expect.any(String));
    const left = cloudflare.records.map((r) => `${r.name} ${r.type} ${r.content} proxied=${r.proxied}`).sort();
    expect(left).toEqual(
      [
        `${host} CNAME ${EDGE_TARGET} proxied=false`,
        `${host} MX mx.mail.example proxied=false`,
        `${host} TXT v=spf1 -all proxied=false`,
        'cf-customer.com A 198.51.100.2 proxied=false',
        'www.cf-customer.com CNAME elsewhere.example proxied=false',
      ].sort(),
    );
    // The zone was found by walking up from the hostname.
    const zoneLookups = cloudflare.requests.filter((r) => r.path.endsWith('/zones')).map((r) => r.query.get('name'));
    expect(zoneLookups).toEqual([host, 'cf-customer.com']);
    expect(cloudflare.requests.every((r) => r.authorization === `Bearer ${CF_TOKEN}`)).toBe(true);

    // Applying again changes nothing: the right record is kept.
    const again = await apply(id, { provider: 'cloudflare', token: CF_TOKEN }).expect(200);
    expect(again.body.applied).toMatchObject({ removed: 0, written: [{ type: 'CNAME', action: 'kept' }] });
    expect(cloudflare.records).toHaveLength(5);
  });

  it('Cloudflare apex: a flattened CNAME to the edge, not proxied, in place of the old routing records', async () => {
    cloudflare.addRecord('cf-apex.com', { name: 'cf-apex.com', type: 'A', content: '198.51.100.4', proxied: true });
    cloudflare.addRecord('cf-apex.com', { name: 'cf-apex.com', type: 'AAAA', content: '2001:db8::4' });
    cloudflare.addRecord('cf-apex.com', { name: 'cf-apex.com', type: 'MX', content: 'mx.cf-apex.com', priority: 5 });
    const id = await connect('cf-apex.com');
    const res = await apply(id, { provider: 'cloudflare', token: CF_TOKEN }).expect(200);
    expect(res.body.applied).toMatchObject({
      removed: 2,
      written: [{ type: 'CNAME', name: 'cf-apex.com', value: EDGE_TARGET, action: 'created' }],
    });
    const apex = cloudflare.records.filter((r) => r.zone_name === 'cf-apex.com');
    expect(apex.map((r) => [r.type, r.content, r.proxied]).sort()).toEqual([
      ['CNAME', EDGE_TARGET, false],
      ['MX', 'mx.cf-apex.com', false],
    ]);
  });

  it('DigitalOcean: the same rule through its domain records API', async () => {
    const host = 'app.do-customer.com';
    digitalocean.addRecord('do-customer.com', { name: 'app', type: 'CNAME', data: 'old-target.example.' });
    digitalocean.addRecord('do-customer.com', { name: 'app', type: 'TXT', data: 'verification=abc' });
    digitalocean.addRecord('do-customer.com', { name: '@', type: 'MX', data: 'mail.do-customer.com.', priority: 10 });
    digitalocean.addRecord('do-customer.com', { name: 'www', type: 'A', data: '198.51.100.3' });
    const id = await connect(host);
    const res = await apply(id, { provider: 'digitalocean', token: DO_TOKEN }).expect(200);
    expect(res.body.applied).toEqual({
      provider: 'digitalocean',
      written: [
        { type: 'CNAME', name: host, value: EDGE_TARGET, ttl: 3600, id: expect.any(String), action: 'created' },
      ],
      removed: 1,
    });
    expect(res.body.domain).toMatchObject({ id, monitorStatus: 'dns_not_resolving' });
    const records = digitalocean.records
      .get('do-customer.com')!
      .map((r) => `${r.name} ${r.type} ${r.data}`)
      .sort();
    expect(records).toEqual(
      [
        `app CNAME ${EDGE_TARGET}.`,
        'app TXT verification=abc',
        '@ MX mail.do-customer.com.',
        'www A 198.51.100.3',
      ].sort(),
    );
    const lookups = digitalocean.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/records'));
    expect(lookups.map((r) => r.path)).toEqual(['/v2/domains/app.do-customer.com', '/v2/domains/do-customer.com']);

    const apexId = await connect('do-apex.com');
    digitalocean.addRecord('do-apex.com', { name: '@', type: 'A', data: '198.51.100.9' });
    digitalocean.addRecord('do-apex.com', { name: '@', type: 'TXT', data: 'keep-me' });
    const apex = await apply(apexId, { provider: 'digitalocean', token: DO_TOKEN }).expect(200);
    expect(apex.body.applied).toMatchObject({
      removed: 1,
      written: [{ type: 'A', value: EDGE_IP, action: 'created' }],
    });
    expect(
      digitalocean.records
        .get('do-apex.com')!
        .map((r) => `${r.name} ${r.type} ${r.data}`)
        .sort(),
    ).toEqual([`@ A ${EDGE_IP}`, '@ TXT keep-me'].sort());
  });

  it('provider refusals are 422 with specific codes, and the token is never echoed', async () => {
    const cfId = await connect('blog.cf-customer.com');
    const doId = await connect('blog.do-customer.com');
    const nowhere = await connect('shop.not-hosted.com');
    const cases: [string, object, string][] = [
      [cfId, { provider: 'cloudflare', token: 'cf-unknown-SECRET' }, 'dns_token_invalid'],
      [cfId, { provider: 'cloudflare', token: 'cf-disabled' }, 'dns_token_invalid'],
      [cfId, { provider: 'cloudflare', token: 'cf-read-only' }, 'dns_token_insufficient_scope'],
      [cfId, { provider: 'cloudflare', token: 'cf-no-zone' }, 'dns_zone_not_found'],
      [nowhere, { provider: 'cloudflare', token: CF_TOKEN }, 'dns_zone_not_found'],
      [doId, { provider: 'digitalocean', token: 'do-unknown-SECRET' }, 'dns_token_invalid'],
      [doId, { provider: 'digitalocean', token: 'do-read-only' }, 'dns_token_insufficient_scope'],
      [nowhere, { provider: 'digitalocean', token: DO_TOKEN }, 'dns_zone_not_found'],
    ];
    for (const [id, body, code] of cases) {
      const res = await apply(id, body);
      expect([code, res.status, res.body.error]).toEqual([code, 422, code]);
      expect(res.body.message).toEqual(expect.any(String));
      expect(JSON.stringify(res.body)).not.toContain((body as { token: string }).token);
    }
    // A refused write (the zone is at its record quota) and an unreachable provider: dns_write_refused.
    const full = await startCloudflareFake({
      tokens: { [CF_TOKEN]: { permissions: ['zone:read', 'dns:edit'] } },
      zones: ['cf-customer.com'],
      recordQuota: 1,
    });
    full.addRecord('cf-customer.com', { name: 'cf-customer.com', type: 'MX', content: 'mx.example', priority: 1 });
    for (const [apiUrl, reason] of [
      [full.url, /Record quota exceeded/],
      ['http://127.0.0.1:9/client/v4', /could not be reached/],
    ] as const) {
      const other = await startTestApp({ env: { ...domainEnv(dns.address), CLOUDFLARE_API_URL: apiUrl } });
      try {
        const k = (await createWorkspaceVia(other.server)).apiKey;
        const created = await request(other.server)
          .post('/v1/domains')
          .set('authorization', `Bearer ${k}`)
          .send({ hostname: 'stuck.cf-customer.com', originUrl: ORIGIN_URL })
          .expect(201);
        const res = await request(other.server)
          .post(`/v1/domains/${created.body.domain.id}/dns/apply`)
          .set('authorization', `Bearer ${k}`)
          .send({ provider: 'cloudflare', token: CF_TOKEN })
          .expect(422);
        expect(res.body).toMatchObject({ error: 'dns_write_refused', message: expect.stringMatching(reason) });
        expect(JSON.stringify(res.body)).not.toContain(CF_TOKEN);
      } finally {
        await other.close();
      }
    }
    await full.close();
  });

  it('validates the body and the domain: 400 for bad input, 404 for missing domains', async () => {
    const id = await connect('form.cf-customer.com');
    for (const body of [
      {},
      { provider: 'route53', token: CF_TOKEN },
      { provider: 'cloudflare' },
      { provider: 'cloudflare', token: '' },
      { provider: 'cloudflare', token: 'has spaces SECRET' },
      { provider: 'cloudflare', token: 'line\nbreak-SECRET' },
      { provider: 'cloudflare', token: CF_TOKEN, zoneId: 'x' },
    ]) {
      const res = await apply(id, body).expect(400);
      expect(res.body.error).toBe('bad_request');
      expect(JSON.stringify(res.body)).not.toContain('SECRET');
    }
    await apply('dom_missing', { provider: 'cloudflare', token: CF_TOKEN }).expect(404);
  });

  it('a connect session may apply its own domain only', async () => {
    const id = await connect('session.cf-customer.com');
    const other = await connect('other.cf-customer.com');
    const token = await session(id);
    const res = await apply(id, { provider: 'cloudflare', token: CF_TOKEN }, token).expect(200);
    expect(res.body.applied.written).toHaveLength(1);
    await apply(other, { provider: 'cloudflare', token: CF_TOKEN }, token).expect(403);
    // The audit log says the end customer's connect link applied it, at which provider, and no token.
    const audited = await eventually(
      () =>
        t.db.query<{ actor: string; detail: Record<string, unknown> }>(
          "select actor, detail from console_audit where action = 'domain.dns_applied' and target = $1",
          [id],
        ),
      (rows) => rows.length > 0,
      { timeoutMs: 10_000, what: 'the audit entry of the apply' },
    );
    expect(audited).toEqual([
      {
        actor: `connect link (${id})`,
        detail: { name: 'session.cf-customer.com', provider: 'cloudflare', via: 'api' },
      },
    ]);
    expect(JSON.stringify(await t.db.query('select detail from console_audit'))).not.toContain(CF_TOKEN);
  });
});

describe('dns/apply in a running process: the DNS token never reaches the logs', () => {
  let db: TestDatabase;
  let dns: DnsServer;
  let cloudflare: CloudflareFake;
  let digitalocean: DigitalOceanFake;
  const dataDir = mkdtempSync(join(tmpdir(), 'dns-apply-'));

  beforeAll(async () => {
    [db, dns] = await Promise.all([createTestDatabase(), startDnsServer(domainZones())]);
    cloudflare = await startCloudflareFake({
      tokens: {
        [CF_TOKEN]: { permissions: ['zone:read', 'dns:edit'] },
        'cf-ro-SECRETTOKEN': { permissions: ['zone:read'] },
      },
      zones: ['cf-customer.com'],
    });
    digitalocean = await startDigitalOceanFake({
      tokens: { [DO_TOKEN]: { scopes: ['domain:read'] } },
      domains: ['do-customer.com'],
    });
  });
  afterAll(async () => {
    await stopAllProcesses();
    await Promise.all([cloudflare?.close(), digitalocean?.close(), dns?.close(), db?.drop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs every request at trace level without the token, whether the apply succeeds or fails', async () => {
    const proc = startProcess('dist/apps/standalone/src/main.js', {
      ...domainEnv(dns.address),
      ...(await freeEdgePorts()),
      PORT: '0',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SIGNING_SECRET: TEST_SIGNING_SECRET,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      CLOUDFLARE_API_URL: cloudflare.url,
      DIGITALOCEAN_API_URL: digitalocean.url,
      LOG_LEVEL: 'trace',
    });
    const url = await waitForUrl(proc, 60_000);
    const { apiKey } = await createWorkspaceVia(url);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const created = JSON.parse(
      (await post('/v1/domains', { hostname: 'logs.cf-customer.com', originUrl: ORIGIN_URL })).text,
    );
    const id = created.domain.id as string;
    const outcomes = [
      await post(`/v1/domains/${id}/dns/apply`, { provider: 'cloudflare', token: CF_TOKEN }),
      await post(`/v1/domains/${id}/dns/apply`, { provider: 'cloudflare', token: 'cf-ro-SECRETTOKEN' }),
      await post(`/v1/domains/${id}/dns/apply`, { provider: 'digitalocean', token: DO_TOKEN }),
      await post(`/v1/domains/${id}/dns/apply`, { provider: 'cloudflare', token: 'bad token SECRET with spaces' }),
      await post(`/v1/domains/${id}/dns/apply`, { provider: 'cloudflare', token: ['SECRET-in-an-array'] }),
      await post(`/v1/domains/${id}/dns/apply`, '{"provider":"cloudflare","token":"SECRET-broken-json'),
    ];
    expect(outcomes.map((o) => o.status)).toEqual([200, 422, 422, 400, 400, 400]);
    for (const o of outcomes) expect(o.text).not.toContain('SECRET');
    // Every request was logged (so the absence below means something), and no line carries a token.
    const applyLines = await eventually(
      () =>
        proc
          .output()
          .split('\n')
          .filter((line) => line.includes('/dns/apply')),
      (lines) => lines.length >= outcomes.length,
      { what: 'a log line for each /dns/apply request', timeoutMs: 5_000 },
    );
    expect(applyLines.length).toBeGreaterThanOrEqual(outcomes.length);
    const output = proc.output();
    expect(output).not.toContain('SECRET');
    expect(cloudflare.requests.some((r) => r.authorization === `Bearer ${CF_TOKEN}`)).toBe(true);
    await proc.stop();
  });
});

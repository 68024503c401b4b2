import { publicKeyTxtRecords } from '@app/connect';
import {
  DnsRecord,
  DnsServer,
  DnsZones,
  EDGE_IP,
  EDGE_TARGET,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import { createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FakeDomainConnectProvider, startDomainConnectProvider } from './fakes/domain-connect-provider';

const PROVIDER_HOST = 'dc.fakedns-test.net';
const KEY_DOMAIN = 'keys.saas-test.net';
const ns = (...hosts: string[]): DnsRecord[] => hosts.map((data) => ({ type: 'NS', data }));

/** Customer zones at several DNS providers, each with a Domain Connect behaviour at the fake provider. */
function zones(discovery: string, keyRecords: string[]): DnsZones {
  const dc = (domain: string): DnsZones => ({ [`_domainconnect.${domain}`]: [{ type: 'TXT', data: discovery }] });
  return {
    ...domainZones(),
    [PROVIDER_HOST]: [{ type: 'A', data: '127.0.0.1' }],
    [`_dcpubkeyv1.${KEY_DOMAIN}`]: keyRecords.map((data) => ({ type: 'TXT', data })),
    'cf-customer.com': ns('ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'),
    ...dc('cf-customer.com'),
    'gd-customer.com': ns('ns51.domaincontrol.com', 'ns52.domaincontrol.com'),
    ...dc('gd-customer.com'),
    'eu.gd-customer.com': ns('ns1.digitalocean.com', 'ns2.digitalocean.com'),
    'r53-customer.com': ns('ns-1.awsdns-07.net', 'ns-2.awsdns-11.org', 'ns-3.awsdns-33.co.uk'),
    ...dc('r53-customer.com'),
    'other-customer.com': ns('ns1.corp-dns.net', 'ns2.corp-dns.net'),
    ...dc('other-customer.com'),
    'do-customer.com': ns('ns1.digitalocean.com', 'ns2.digitalocean.com'),
    'broken-customer.com': ns('ada.ns.cloudflare.com'),
    ...dc('broken-customer.com'),
    'slow-customer.com': ns('ada.ns.cloudflare.com'),
    ...dc('slow-customer.com'),
    'ssrf-customer.com': ns('ada.ns.cloudflare.com'),
    '_domainconnect.ssrf-customer.com': [{ type: 'TXT', data: 'internal.saas-test.net' }],
    'late-customer.com': ns('ada.ns.cloudflare.com'),
  };
}

/** GET over HTTPS trusting the test CA, resolving the provider's name to loopback like the fixture DNS does. */
function follow(url: string, ca: string): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, {
      ca,
      lookup: (_h, _o, cb) =>
        _o.all ? (cb as any)(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4),
    });
    req.once('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('GET /v1/domains/{id}/instructions', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const tmp = mkdtempSync(join(tmpdir(), 'connect-instructions-'));
  let dns: DnsServer;
  let dnsClosed = false;
  let provider: FakeDomainConnectProvider;
  let t: TestApp;
  let key: string;
  let otherKey: string;
  const ids: Record<string, string> = {};

  async function workspace(): Promise<string> {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'ws', paymentMethod: 'pm_card_visa' })
      .expect(201);
    return res.body.apiKey as string;
  }
  const connect = async (hostname: string) => {
    const res = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${key}`)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    ids[hostname] = res.body.domain.id as string;
  };
  const instructions = (hostname: string, query: Record<string, string> = {}, k = key) =>
    request(t.server).get(`/v1/domains/${ids[hostname]}/instructions`).query(query).set('authorization', `Bearer ${k}`);

  beforeAll(async () => {
    dns = await startDnsServer({});
    provider = await startDomainConnectProvider(
      {
        host: PROVIDER_HOST,
        dnsAddress: dns.address,
        syncPubKeyDomain: KEY_DOMAIN,
        domains: {
          'cf-customer.com': 'adopted',
          'gd-customer.com': 'not_adopted',
          'r53-customer.com': 'no_sync',
          'other-customer.com': 'unavailable',
          'broken-customer.com': 'template_error',
          'slow-customer.com': 'slow',
        },
      },
      tmp,
    );
    for (const [name, records] of Object.entries(zones(provider.discovery, publicKeyTxtRecords(privatePem))))
      dns.setRecords(name, records);
    t = await startTestApp({
      env: {
        ...domainEnv(dns.address),
        OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
        DOMAIN_CONNECT_CA_FILE: provider.caFile,
        DOMAIN_CONNECT_PRIVATE_KEY: privatePem,
      },
    });
    [key, otherKey] = await Promise.all([workspace(), workspace()]);
    for (const hostname of [
      'shop.cf-customer.com',
      'cf-customer.com',
      'gd-customer.com',
      'www.gd-customer.com',
      'app.eu.gd-customer.com',
      'shop.r53-customer.com',
      'shop.other-customer.com',
      'other-customer.com',
      'do-customer.com',
      'shop.broken-customer.com',
      'shop.ssrf-customer.com',
      'shop.slow-customer.com',
      'late-customer.com',
    ])
      await connect(hostname);
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
    if (!dnsClosed) await dns?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('Cloudflare subdomain: CNAME named by label, grey-cloud quirk, signed Domain Connect apply URL', async () => {
    const res = await instructions('shop.cf-customer.com', {
      redirect_uri: 'https://app.saas.example/connected?tab=dns',
      state: 'st 123/x',
    }).expect(200);
    const i = res.body.instructions;
    expect(i).toMatchObject({
      hostname: 'shop.cf-customer.com',
      provider: { id: 'cloudflare', name: 'Cloudflare', detected: true },
      apex: false,
      method: 'cname',
      records: [{ type: 'CNAME', name: 'shop', value: EDGE_TARGET, ttl: 300 }],
      dashboardUrl: 'https://dash.cloudflare.com/?to=/:account/cf-customer.com/dns/records',
    });
    expect(Object.keys(i).sort()).toEqual(
      [
        'apex',
        'dashboardUrl',
        'domainConnect',
        'hostname',
        'method',
        'methodReason',
        'provider',
        'quirks',
        'records',
        'steps',
      ].sort(),
    );
    expect(i.methodReason).toMatch(/subdomain/);
    expect(i.quirks.join(' ')).toMatch(/DNS only/);
    expect(i.domainConnect).toMatchObject({
      supported: true,
      providerId: 'fakedns.example',
      providerName: 'FakeDNS',
      providerDisplayName: 'FakeDNS Domains',
      width: 640,
      height: 720,
      urlControlPanel: 'https://panel.fakedns.example/dns/cf-customer.com',
    });
    expect(i.domainConnect.reason).toBeUndefined();
    // The template check asked for our own template.
    expect(provider.requests).toContain(
      'GET /api/adopted/v2/domainTemplates/providers/custom-domains.example/services/custom-domain',
    );

    const applyUrl = new URL(i.domainConnect.applyUrl);
    expect(`${applyUrl.origin}${applyUrl.pathname}`).toBe(
      `https://${provider.discovery}/sync/v2/domainTemplates/providers/custom-domains.example/services/custom-domain/apply`,
    );
    expect(Object.fromEntries(applyUrl.searchParams)).toMatchObject({
      domain: 'cf-customer.com',
      host: 'shop',
      target: EDGE_TARGET,
      groupId: 'cname',
      redirect_uri: 'https://app.saas.example/connected?tab=dns',
      state: 'st 123/x',
      key: '_dcpubkeyv1',
    });
    // Verified by hand as a provider does: key from DNS, RSA-SHA256 over the query without sig and key.
    const raw = applyUrl.search.slice(1);
    const unsigned = raw
      .split('&')
      .filter((p) => !p.startsWith('sig=') && !p.startsWith('key='))
      .join('&');
    expect(raw.startsWith(`${unsigned}&key=_dcpubkeyv1&sig=`)).toBe(true);
    const publicKey = createPublicKey(keys.privateKey);
    const sig = Buffer.from(applyUrl.searchParams.get('sig')!, 'base64');
    expect(createVerify('RSA-SHA256').update(unsigned).verify(publicKey, sig)).toBe(true);
    expect(createVerify('RSA-SHA256').update(unsigned.replace('shop', 'evil')).verify(publicKey, sig)).toBe(false);

    // And by the fake provider itself, which then sends the customer back with the state.
    const applied = await follow(i.domainConnect.applyUrl, provider.ca.certPem);
    expect(applied.status).toBe(302);
    const back = new URL(applied.location!);
    expect(`${back.origin}${back.pathname}`).toBe('https://app.saas.example/connected');
    expect(back.searchParams.get('tab')).toBe('dns');
    expect(back.searchParams.get('state')).toBe('st 123/x');
    expect(provider.applied.at(-1)).toEqual({
      verified: true,
      domain: 'cf-customer.com',
      host: 'shop',
      groupId: 'cname',
      variables: { target: EDGE_TARGET },
    });

    // A tampered URL is refused by the provider.
    const tampered = await follow(
      i.domainConnect.applyUrl.replace(`target=${EDGE_TARGET}`, 'target=evil.example'),
      provider.ca.certPem,
    );
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.body)).toMatchObject({ verified: false, error: 'invalid_signature' });
  });

  it('Cloudflare apex: CNAME at "@" thanks to flattening; Domain Connect writes the A record at the root', async () => {
    const res = await instructions('cf-customer.com').expect(200);
    const i = res.body.instructions;
    expect(i).toMatchObject({
      apex: true,
      method: 'cname',
      records: [{ type: 'CNAME', name: '@', value: EDGE_TARGET, ttl: 300 }],
    });
    expect(i.methodReason).toMatch(/Cloudflare flattens/);
    const applyUrl = new URL(i.domainConnect.applyUrl);
    expect(applyUrl.searchParams.has('host')).toBe(false);
    expect(applyUrl.searchParams.has('redirect_uri')).toBe(false);
    expect(applyUrl.searchParams.has('state')).toBe(false);
    expect(applyUrl.searchParams.get('ip')).toBe(EDGE_IP);
    expect(applyUrl.searchParams.get('groupId')).toBe('a');
    const applied = await follow(i.domainConnect.applyUrl, provider.ca.certPem);
    expect(applied.status).toBe(200);
    expect(JSON.parse(applied.body)).toMatchObject({
      verified: true,
      domain: 'cf-customer.com',
      host: '',
      variables: { ip: EDGE_IP },
    });
  });

  it('GoDaddy apex: A records to EDGE_IPV4 at "@"; template not adopted, provider fields kept', async () => {
    const res = await instructions('gd-customer.com').expect(200);
    const i = res.body.instructions;
    expect(i).toMatchObject({
      provider: { id: 'godaddy', name: 'GoDaddy', detected: true },
      apex: true,
      method: 'a',
      records: [{ type: 'A', name: '@', value: EDGE_IP, ttl: 3600 }],
      dashboardUrl: 'https://dcc.godaddy.com/control/dnsmanagement?domainName=gd-customer.com',
    });
    expect(i.methodReason).toMatch(/GoDaddy does not allow a CNAME/);
    expect(i.domainConnect).toEqual({
      supported: false,
      reason: 'template_not_adopted',
      providerId: 'fakedns.example',
      providerName: 'FakeDNS',
      providerDisplayName: 'FakeDNS Domains',
      width: 640,
      height: 720,
      urlControlPanel: 'https://panel.fakedns.example/dns/gd-customer.com',
    });
  });

  it('adds the CAA record to create when CAA allows none of our CAs', async () => {
    dns.setRecords('caa-instructions.com', [{ type: 'CAA', data: { flags: 0, tag: 'issue', value: 'digicert.com' } }]);
    await connect('shop.caa-instructions.com');
    const { steps } = (await instructions('shop.caa-instructions.com').expect(200)).body.instructions as {
      steps: string[];
    };
    const caa = steps.find((step) => step.includes('CAA'));
    expect(caa).toContain("none of the certificate authorities this service uses (Let's Encrypt)");
    expect(caa).toContain('caa-instructions.com. CAA 0 issue "letsencrypt.org"');
    // Before the closing "Check now" step, while the customer still has the DNS editor open.
    expect(steps.indexOf(caa!)).toBe(steps.length - 3);
    const plain = (await instructions('shop.cf-customer.com').expect(200)).body.instructions as { steps: string[] };
    expect(plain.steps.some((step) => step.includes('CAA'))).toBe(false);
  });

  it('GoDaddy subdomain: CNAME with the label only', async () => {
    const res = await instructions('www.gd-customer.com').expect(200);
    expect(res.body.instructions).toMatchObject({
      method: 'cname',
      records: [{ type: 'CNAME', name: 'www', value: EDGE_TARGET, ttl: 3600 }],
    });
    expect(res.body.instructions.steps.join('\n')).toContain('Add a CNAME record: Name "www"');
  });

  it('a subzone delegated to another provider: detected at the zone cut, label relative to it', async () => {
    const res = await instructions('app.eu.gd-customer.com').expect(200);
    expect(res.body.instructions).toMatchObject({
      provider: { id: 'digitalocean', detected: true },
      apex: false,
      method: 'cname',
      records: [{ type: 'CNAME', name: 'app', value: EDGE_TARGET }],
    });
  });

  it('Route 53: detected by awsdns; settings without urlSyncUX give no_sync_support', async () => {
    const res = await instructions('shop.r53-customer.com').expect(200);
    expect(res.body.instructions.provider).toEqual({ id: 'route53', name: 'Amazon Route 53', detected: true });
    expect(res.body.instructions.records).toEqual([
      { type: 'CNAME', name: 'shop', value: EDGE_TARGET, ttl: 300, purpose: 'traffic' },
    ]);
    expect(res.body.instructions.domainConnect).toMatchObject({ supported: false, reason: 'no_sync_support' });
    expect(res.body.instructions.domainConnect.applyUrl).toBeUndefined();
  });

  it('unknown provider: detected false, generic steps naming its nameservers; settings_unavailable', async () => {
    const res = await instructions('shop.other-customer.com').expect(200);
    const i = res.body.instructions;
    expect(i.provider).toEqual({ id: 'unknown', name: 'Your DNS provider', detected: false });
    expect(i.method).toBe('cname');
    expect(i.records).toEqual([{ type: 'CNAME', name: 'shop', value: EDGE_TARGET, ttl: 3600, purpose: 'traffic' }]);
    expect(i.steps[0]).toContain('ns1.corp-dns.net');
    expect(i.quirks.join(' ')).toMatch(/only the label/);
    expect(i.domainConnect).toEqual({ supported: false, reason: 'settings_unavailable' });
  });

  it('unknown provider at the apex: A records', async () => {
    const res = await instructions('other-customer.com').expect(200);
    expect(res.body.instructions).toMatchObject({
      provider: { detected: false },
      apex: true,
      method: 'a',
      records: [{ type: 'A', name: '@', value: EDGE_IP, ttl: 3600 }],
    });
  });

  it('no _domainconnect record: no_discovery_record', async () => {
    const res = await instructions('do-customer.com').expect(200);
    expect(res.body.instructions.provider.id).toBe('digitalocean');
    expect(res.body.instructions.domainConnect).toEqual({ supported: false, reason: 'no_discovery_record' });
  });

  it('template check failing (500): lookup_failed', async () => {
    const res = await instructions('shop.broken-customer.com').expect(200);
    expect(res.body.instructions.domainConnect).toMatchObject({ supported: false, reason: 'lookup_failed' });
  });

  it('settings that never answer: the 3 s timeout ends the wait with settings_unavailable', async () => {
    const started = Date.now();
    const res = await instructions('shop.slow-customer.com').expect(200);
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(res.body.instructions.provider.id).toBe('cloudflare');
    expect(res.body.instructions.domainConnect).toEqual({ supported: false, reason: 'settings_unavailable' });
  });

  it('a discovery record naming a private address is not fetched (SSRF): settings_unavailable', async () => {
    const before = provider.requests.length;
    const res = await instructions('shop.ssrf-customer.com').expect(200);
    expect(res.body.instructions.domainConnect).toEqual({ supported: false, reason: 'settings_unavailable' });
    expect(provider.requests.length).toBe(before);
  });

  it('404 for a missing or foreign id, 401 without a token, 400 for a bad redirect_uri or state', async () => {
    await request(t.server)
      .get('/v1/domains/dom_missing/instructions')
      .set('authorization', `Bearer ${key}`)
      .expect(404)
      .expect((r) => expect(r.body.error).toBe('not_found'));
    await instructions('shop.cf-customer.com', {}, otherKey).expect(404);
    await request(t.server).get(`/v1/domains/${ids['shop.cf-customer.com']}/instructions`).expect(401);
    const bad = await instructions('shop.cf-customer.com', { redirect_uri: 'not a url' }).expect(400);
    expect(bad.body.error).toBe('bad_request');
    await instructions('shop.cf-customer.com', { state: 'x'.repeat(513) }).expect(400);
    await instructions('shop.cf-customer.com', { other: '1' }).expect(400);
  });

  it('DNS failures never fail the call: provider unknown, Domain Connect lookup_failed', async () => {
    dnsClosed = true;
    await dns.close(); // the resolver now gets no answers at all
    const res = await instructions('late-customer.com').expect(200);
    expect(res.body.instructions).toMatchObject({
      hostname: 'late-customer.com',
      provider: { id: 'unknown', detected: false },
      method: 'a',
      domainConnect: { supported: false, reason: 'lookup_failed' },
    });
  });
});

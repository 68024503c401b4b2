import * as acme from 'acme-client';
import { execFileSync } from 'node:child_process';
import { X509Certificate, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
// The modules themselves, not the barrel: it loads the whole app, which these tests do not use.
import { AcmeProxy, ariCertId, ariCertIdOf, defaultRenewalWindow, startAcmeProxy } from './support/acme-proxy';
import { DnsServer, startDnsServer } from './support/dns-server';
import { freePort, retryOnPortCollision } from './support/free-ports';
import { Pebble, startPebble } from './support/pebble';

/**
 * The ACME proxy (test/support/acme-proxy.ts) in front of a real Pebble, driven by acme-client:
 * what it adds (ARI, profiles, problems, an outage) and that Pebble behind it still issues.
 */

const NAMES = ['ari-a.proxy-test.net', 'ari-b.proxy-test.net', 'ari-c.proxy-test.net'];
const PROFILES = { classic: 'The usual 90 days', shortlived: 'Six days, no CN' };
const RATE_LIMITED = {
  type: 'urn:ietf:params:acme:error:rateLimited',
  detail: 'too many certificates for this name',
  status: 429,
  retryAfterSeconds: 3600,
};
const CAA = { type: 'urn:ietf:params:acme:error:caa', detail: 'CAA forbids this CA', status: 403 };

// RFC 9773 Appendix A's example certificate: AKI keyIdentifier 69:88:5B:6B:87:46:40:41:E1:B3:7B:84:7B:A0:AE:2C:DE:01:C8:D4,
// serial 0x87654321 (DER 00 87 65 43 21), whose certID section 4.1 gives.
const RFC_9773_EXAMPLE = `-----BEGIN CERTIFICATE-----
MIIBQzCB66ADAgECAgUAh2VDITAKBggqhkjOPQQDAjAVMRMwEQYDVQQDEwpFeGFt
cGxlIENBMCIYDzAwMDEwMTAxMDAwMDAwWhgPMDAwMTAxMDEwMDAwMDBaMBYxFDAS
BgNVBAMTC2V4YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEeBZu
7cbpAYNXZLbbh8rNIzuOoqOOtmxA1v7cRm//AwyMwWxyHz4zfwmBhcSrf47NUAFf
qzLQ2PPQxdTXREYEnKMjMCEwHwYDVR0jBBgwFoAUaYhba4dGQEHhs3uEe6CuLN4B
yNQwCgYIKoZIzj0EAwIDRwAwRAIge09+S5TZAlw5tgtiVvuERV6cT4mfutXIlwTb
+FYN/8oCIClDsqBklhB9KAelFiYt9+6FDj3z4KGVelYM5MdsO3pK
-----END CERTIFICATE-----
`;
const RFC_9773_CERT_ID = 'aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A plain HTTPS GET through `agent` (which holds the CA to trust, and may keep connections open). */
function fetchTls(agent: Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

/** Answers Pebble's HTTP-01 validations (key authorizations by token) on the port it was told. */
async function startChallengeResponder(port: number, keyAuthorizations: Map<string, string>): Promise<Server> {
  const server = createServer((req, res) => {
    const token = /^\/\.well-known\/acme-challenge\/([^/?]+)$/.exec(req.url ?? '')?.[1];
    const keyAuthorization = token ? keyAuthorizations.get(token) : undefined;
    res.writeHead(keyAuthorization ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(keyAuthorization ?? 'unknown token');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve());
  });
  return server;
}

const closeServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/** acme-client talks through one global axios instance: trust these CA files, and no retries of its own. */
function trust(...caFiles: string[]): void {
  acme.axios.defaults.httpsAgent = new Agent({ ca: caFiles.map((file) => readFileSync(file)) });
  // A 429 with Retry-After: 3600 would otherwise be retried an hour later.
  (acme.axios.defaults as { acmeSettings?: { retryMaxAttempts: number } }).acmeSettings!.retryMaxAttempts = 0;
}

async function newClient(directoryUrl: string, extra: Partial<acme.ClientOptions> = {}): Promise<acme.Client> {
  return new acme.Client({
    directoryUrl,
    accountKey: await acme.crypto.createPrivateEcdsaKey(),
    backoffMin: 200,
    backoffMax: 1_000,
    backoffAttempts: 20,
    ...extra,
  });
}

describe('ACME proxy in front of Pebble', () => {
  const keyAuthorizations = new Map<string, string>();
  let dns: DnsServer | undefined;
  let responder: Server | undefined;
  let pebble: Pebble | undefined;
  let proxy: AcmeProxy;
  let client: acme.Client;
  let agent: Agent;

  beforeAll(async () => {
    dns = await startDnsServer(Object.fromEntries(NAMES.map((name) => [name, [{ type: 'A', data: '127.0.0.1' }]])));
    // Pebble is told the HTTP-01 port at start, so the responder binds it first.
    ({ responder, pebble } = await retryOnPortCollision(async () => {
      const httpPort = await freePort();
      const server = await startChallengeResponder(httpPort, keyAuthorizations);
      try {
        return { responder: server, pebble: await startPebble({ dnsServer: dns!.address, httpPort }) };
      } catch (error) {
        await closeServer(server);
        throw error;
      }
    }));
    proxy = await startAcmeProxy({ upstream: pebble, profiles: PROFILES });
    agent = new Agent({ ca: readFileSync(proxy.caFile), keepAlive: true });
    trust(proxy.caFile);
    client = await newClient(proxy.directoryUrl);
    await client.createAccount({ termsOfServiceAgreed: true });
  });

  afterAll(async () => {
    agent?.destroy();
    await proxy?.stop().catch(() => undefined);
    await pebble?.stop().catch(() => undefined);
    await closeServer(responder);
    await dns?.close();
  });

  /** Order, validate over HTTP-01, finalize, download: the chain as served through the proxy. */
  async function issue(name: string, extra: { replaces?: string; profile?: string } = {}): Promise<string> {
    const order = await client.createOrder({ identifiers: [{ type: 'dns', value: name }], ...extra });
    for (const authz of await client.getAuthorizations(order)) {
      const challenge = authz.challenges.find((c) => c.type === 'http-01')!;
      keyAuthorizations.set(challenge.token, await client.getChallengeKeyAuthorization(challenge));
      await client.completeChallenge(challenge);
      await client.waitForValidStatus(challenge);
    }
    const [, csr] = await acme.crypto.createCsr(
      { commonName: name, altNames: [name] },
      await acme.crypto.createPrivateEcdsaKey(),
    );
    return client.getCertificate(await client.finalizeOrder(order, csr));
  }
  let first: Promise<string> | undefined;
  /** One certificate for the tests that need one, issued once whichever runs first. */
  const issuedCertificate = () => (first ??= issue(NAMES[0]));

  it('computes the certID of RFC 9773 section 4.1 from its example certificate and from its values', () => {
    expect(ariCertIdOf(RFC_9773_EXAMPLE)).toBe(RFC_9773_CERT_ID);
    const keyIdentifier = Buffer.from('69885b6b87464041e1b37b847ba0ae2cde01c8d4', 'hex');
    expect(ariCertId(keyIdentifier, Buffer.from('0087654321', 'hex'))).toBe(RFC_9773_CERT_ID);
  });

  it("serves Pebble's directory with renewalInfo and profiles added, its URLs naming the proxy", async () => {
    const answer = await fetchTls(agent, proxy.directoryUrl);
    expect(answer.status).toBe(200);
    const directory = JSON.parse(answer.body);
    expect(directory.renewalInfo).toBe(`${proxy.origin}/renewal-info`);
    expect(proxy.renewalInfoUrl).toBe(directory.renewalInfo);
    expect(directory.meta.profiles).toEqual(PROFILES);
    // The Host header reached Pebble unchanged: its own URLs point back at the proxy.
    expect(directory.newOrder).toBe(`${proxy.origin}/order-plz`);
    expect(directory.newNonce).toBe(`${proxy.origin}/nonce-plz`);
  });

  it('records an issued certificate and answers ARI for it: the default window, then a set one', async () => {
    const pem = await issuedCertificate();
    const leaf = new X509Certificate(pem);
    const certId = ariCertIdOf(pem);
    // The certID from fields read independently: the AKI as OpenSSL prints it, the serial with its DER sign byte.
    const akiText = execFileSync('openssl', ['x509', '-noout', '-ext', 'authorityKeyIdentifier'], { input: pem });
    const aki = /[0-9A-F]{2}(?::[0-9A-F]{2})+/.exec(akiText.toString())![0];
    const serialHex = leaf.serialNumber.length % 2 ? `0${leaf.serialNumber}` : leaf.serialNumber;
    const serial = Buffer.from(serialHex, 'hex');
    const serialOctets = serial[0] & 0x80 ? Buffer.concat([Buffer.from([0]), serial]) : serial;
    expect(certId).toBe(
      `${Buffer.from(aki.replace(/:/g, ''), 'hex').toString('base64url')}.${serialOctets.toString('base64url')}`,
    );

    const recorded = proxy.certificates().find((c) => c.certId === certId);
    expect(recorded).toMatchObject({ pem, notBefore: new Date(leaf.validFrom), notAfter: new Date(leaf.validTo) });

    const before = proxy.renewalInfoRequests(certId);
    const answer = await fetchTls(agent, `${proxy.renewalInfoUrl}/${certId}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['retry-after']).toBe('21600');
    const expected = defaultRenewalWindow(new Date(leaf.validFrom), new Date(leaf.validTo));
    expect(JSON.parse(answer.body)).toEqual({
      suggestedWindow: { start: expected.start.toISOString(), end: expected.end.toISOString() },
    });
    expect(new Date(leaf.validFrom) < expected.start && expected.end < new Date(leaf.validTo)).toBe(true);

    const start = new Date(Date.now() - 60_000);
    const end = new Date(Date.now() + 60_000);
    proxy.setRenewalWindow(pem, { start, end }, 60);
    const set = await fetchTls(agent, `${proxy.renewalInfoUrl}/${certId}`);
    expect(set.headers['retry-after']).toBe('60');
    expect(JSON.parse(set.body).suggestedWindow).toEqual({ start: start.toISOString(), end: end.toISOString() });
    // The same certificate by its serial, as OpenSSL would print it.
    proxy.setRenewalWindow(serialHex.match(/../g)!.join(':'), { start: end, end: new Date(end.getTime() + 1) });
    const bySerial = JSON.parse((await fetchTls(agent, `${proxy.renewalInfoUrl}/${certId}`)).body);
    expect(bySerial.suggestedWindow.start).toBe(end.toISOString());
    expect(proxy.renewalInfoRequests(certId)).toBe(before + 3);
  });

  it('answers an unknown certID with 404 and a problem document', async () => {
    const answer = await fetchTls(agent, `${proxy.renewalInfoUrl}/${RFC_9773_CERT_ID}`);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'urn:ietf:params:acme:error:malformed', status: 404 });
    expect(() => proxy.setRenewalWindow('0badc0de', { start: new Date(), end: new Date() })).toThrow(/no certificate/);
  });

  it('records replaces and profile of a newOrder, and Pebble 2.4.0 still issues', async () => {
    const replaces = ariCertIdOf(await issuedCertificate());
    const pem = await issue(NAMES[1], { replaces, profile: 'shortlived' });
    expect(new X509Certificate(pem).subjectAltName).toBe(`DNS:${NAMES[1]}`);
    expect(proxy.orders().at(-1)).toEqual({
      identifiers: [{ type: 'dns', value: NAMES[1] }],
      replaces,
      profile: 'shortlived',
      at: expect.any(Number),
    });
  });

  it('answers injected newOrder problems with their type, Retry-After and a nonce Pebble accepts', async () => {
    // acme-client's signing layer itself: the raw answer (status, headers) and a nonce of our choosing.
    const http = (client as any).api.http;
    const newOrder = `${proxy.origin}/order-plz`;
    const payload = { identifiers: [{ type: 'dns', value: NAMES[2] }] };
    const kid = client.getAccountUrl();
    proxy.failNextOrders(1, RATE_LIMITED);
    proxy.failNextOrders(1, CAA);

    // Both queued problems are used up before any assertion can fail and leave one for later tests.
    const limited = await http.signedRequest(newOrder, payload, { kid });
    const refused = await client.createOrder(payload).catch((error: Error) => error);
    // The rate-limited answer's nonce is one of Pebble's: the order after it goes through on it.
    const created = await http.signedRequest(newOrder, payload, { kid, nonce: limited.headers['replay-nonce'] });

    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toBe('application/problem+json');
    expect(limited.headers['retry-after']).toBe('3600');
    expect(limited.data).toEqual({ type: RATE_LIMITED.type, detail: RATE_LIMITED.detail, status: 429 });
    // acme-client's own path: the detail becomes its error.
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe(CAA.detail);
    expect(created.status).toBe(201);
    expect(created.data.status).toBe('pending');
    expect(
      proxy
        .orders()
        .slice(-3)
        .map((order) => order.injected),
    ).toEqual([RATE_LIMITED.type, CAA.type, undefined]);
  });

  it('refuses every POST while failAll is set, and forwards again after', async () => {
    proxy.failAll({ type: 'urn:ietf:params:acme:error:serverInternal', detail: 'CA refuses everything', status: 503 });
    try {
      await expect(client.createOrder({ identifiers: [{ type: 'dns', value: NAMES[2] }] })).rejects.toThrow(
        'CA refuses everything',
      );
      const other = await newClient(proxy.directoryUrl);
      await expect(other.createAccount({ termsOfServiceAgreed: true })).rejects.toThrow('CA refuses everything');
    } finally {
      proxy.failAll(undefined);
    }
    await expect(client.createOrder({ identifiers: [{ type: 'dns', value: NAMES[2] }] })).resolves.toMatchObject({
      status: 'pending',
    });
  });

  it('resets connections while down, open ones included, and serves again on the same port after', async () => {
    expect((await fetchTls(agent, proxy.directoryUrl)).status).toBe(200); // leaves a keep-alive connection open
    proxy.down(true);
    try {
      await expect(fetchTls(agent, proxy.directoryUrl)).rejects.toMatchObject({ code: 'ECONNRESET' });
      await expect(fetchTls(agent, proxy.directoryUrl)).rejects.toMatchObject({ code: 'ECONNRESET' });
      await expect(client.createOrder({ identifiers: [{ type: 'dns', value: NAMES[2] }] })).rejects.toThrow();
    } finally {
      proxy.down(false);
    }
    expect((await fetchTls(agent, proxy.directoryUrl)).status).toBe(200);
  });

  it('serves the CA chain on the management URL: the issued certificate chains to this Pebble', async () => {
    const leaf = new X509Certificate(await issuedCertificate());
    const intermediate = await fetchTls(
      new Agent({ ca: readFileSync(pebble!.caFile) }),
      `${pebble!.managementUrl}/intermediates/0`,
    );
    expect(intermediate.status).toBe(200);
    expect(leaf.checkIssued(new X509Certificate(intermediate.body))).toBe(true);
  });
});

describe('Pebble requiring external account binding', () => {
  const kid = 'kid-1';
  const hmacKey = randomBytes(32).toString('base64url');
  let dns: DnsServer | undefined;
  let pebble: Pebble | undefined;
  let proxy: AcmeProxy | undefined;

  beforeAll(async () => {
    dns = await startDnsServer({});
    pebble = await startPebble({
      dnsServer: dns.address,
      httpPort: await freePort(), // nothing is validated here
      externalAccountBindingRequired: true,
      eabKeys: { [kid]: hmacKey },
    });
    proxy = await startAcmeProxy({ upstream: pebble });
    trust(proxy.caFile);
  });

  afterAll(async () => {
    await proxy?.stop().catch(() => undefined);
    await pebble?.stop().catch(() => undefined);
    await dns?.close();
  });

  it('refuses an account without a binding and takes one with a configured key, through the proxy', async () => {
    const directory = JSON.parse(
      (await fetchTls(new Agent({ ca: readFileSync(proxy!.caFile) }), proxy!.directoryUrl)).body,
    );
    expect(directory.meta).toMatchObject({ externalAccountRequired: true });
    expect(directory.meta.profiles).toBeUndefined();
    const unbound = await newClient(proxy!.directoryUrl);
    await expect(unbound.createAccount({ termsOfServiceAgreed: true })).rejects.toThrow(/externalAccountBinding/);
    const bound = await newClient(proxy!.directoryUrl, { externalAccountBinding: { kid, hmacKey } });
    await expect(bound.createAccount({ termsOfServiceAgreed: true })).resolves.toMatchObject({ status: 'valid' });
  });
});

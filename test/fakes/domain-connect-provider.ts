import { createPublicKey, createVerify, KeyObject } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { issueCertificate, testCertificateAuthority, TestCertificate } from '@test/support';

/**
 * A DNS provider's Domain Connect endpoints (domainconnect.org v2, synchronous flow) over real HTTPS
 * with a test CA made at start: the settings document, the template-support check and the apply
 * URL. Apply verifies the signature as a provider does: the public key from the TXT records at
 * `<key>.<syncPubKeyDomain>`, RSA-SHA256 over the query string without `sig` and `key`.
 */
export type DomainMode =
  /** Settings with urlSyncUX; our template adopted. */
  | 'adopted'
  /** Settings with urlSyncUX; template check 404. */
  | 'not_adopted'
  /** Settings without urlSyncUX (async only). */
  | 'no_sync'
  /** Settings answer 503. */
  | 'unavailable'
  /** Template check answers 500. */
  | 'template_error';

export interface DomainConnectProviderOptions {
  /** The host name the provider's certificate is for (resolve it to 127.0.0.1 in the fixture DNS). */
  host: string;
  domains: Record<string, DomainMode>;
  /** Where the provider looks up the signing key (the fixture DNS server). */
  dnsAddress: string;
  /** Our template as committed; syncPubKeyDomain may be overridden for the test. */
  syncPubKeyDomain: string;
}

export interface ApplyOutcome {
  verified: boolean;
  error?: string;
  domain?: string;
  host?: string;
  groupId?: string;
  variables?: Record<string, string>;
}

export interface FakeDomainConnectProvider {
  port: number;
  /** `host:port`: the value of the `_domainconnect` TXT record. */
  discovery: string;
  ca: TestCertificate;
  caFile: string;
  requests: string[];
  applied: ApplyOutcome[];
  close(): Promise<void>;
}

interface Template {
  providerId: string;
  serviceId: string;
  records: { groupId: string; type: string; host: string; pointsTo: string }[];
}

export const OUR_TEMPLATE: Template = JSON.parse(
  readFileSync(join(__dirname, '../../libs/connect/templates/custom-domains.example.custom-domain.json'), 'utf8'),
);

/** The key from `p=N,a=RS256,d=...` TXT records, joined in `p` order. */
async function publishedKey(resolver: Resolver, name: string): Promise<KeyObject> {
  const records = (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  const parts = records
    .map((record) =>
      Object.fromEntries(record.split(',').map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)])),
    )
    .filter((fields) => fields.p && fields.d)
    .sort((a, b) => Number(a.p) - Number(b.p));
  if (parts.some((fields) => (fields.a ?? 'RS256') !== 'RS256')) throw new Error('unsupported algorithm');
  const der = Buffer.from(parts.map((fields) => fields.d).join(''), 'base64');
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}

export async function startDomainConnectProvider(
  options: DomainConnectProviderOptions,
  caDir: string,
): Promise<FakeDomainConnectProvider> {
  const ca = testCertificateAuthority('Domain Connect Test CA');
  const leaf = issueCertificate({ hostnames: [options.host], issuer: ca });
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([options.dnsAddress]);
  const requests: string[] = [];
  const applied: ApplyOutcome[] = [];
  let base = '';

  const json = (res: import('node:http').ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  async function apply(rawQuery: string): Promise<{ status: number; outcome: ApplyOutcome; location?: string }> {
    const params = new URLSearchParams(rawQuery);
    const pairs = rawQuery.split('&');
    const sig = params.get('sig');
    const key = params.get('key');
    // The template has syncPubKeyDomain: unsigned requests are refused.
    if (!sig || !key) return { status: 400, outcome: { verified: false, error: 'signature_required' } };
    if (pairs[pairs.length - 1].split('=')[0] !== 'sig' && pairs[pairs.length - 1].split('=')[0] !== 'key')
      return { status: 400, outcome: { verified: false, error: 'sig_and_key_not_last' } };
    const signed = pairs.filter((pair) => !pair.startsWith('sig=') && !pair.startsWith('key=')).join('&');
    let publicKey: KeyObject;
    try {
      publicKey = await publishedKey(resolver, `${key}.${options.syncPubKeyDomain}`);
    } catch (error) {
      return { status: 400, outcome: { verified: false, error: `no_public_key: ${(error as Error).message}` } };
    }
    const ok = createVerify('RSA-SHA256').update(signed).verify(publicKey, Buffer.from(sig, 'base64'));
    if (!ok) return { status: 400, outcome: { verified: false, error: 'invalid_signature' } };
    const groupId = params.get('groupId') ?? undefined;
    const records = OUR_TEMPLATE.records.filter((r) => !groupId || r.groupId === groupId);
    const needed = [...new Set(records.flatMap((r) => [...r.pointsTo.matchAll(/%(\w+)%/g)].map((m) => m[1])))];
    const variables = Object.fromEntries(needed.map((name) => [name, params.get(name) ?? '']));
    const missing = needed.filter((name) => !variables[name]);
    if (!params.get('domain') || missing.length)
      return { status: 400, outcome: { verified: true, error: `missing: ${missing.join(',') || 'domain'}` } };
    const outcome: ApplyOutcome = {
      verified: true,
      domain: params.get('domain')!,
      host: params.get('host') ?? '',
      groupId,
      variables,
    };
    // Consent is given at once; the customer returns to redirect_uri with the state (spec: "state=").
    const redirect = params.get('redirect_uri');
    if (!redirect) return { status: 200, outcome };
    const back = new URL(redirect);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, outcome, location: back.toString() };
  }

  const server: Server = createServer({ key: leaf.keyPem, cert: leaf.chainPem }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://provider');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const settings = /^\/v2\/([^/]+)\/settings$/.exec(url.pathname);
    if (settings) {
      const domain = decodeURIComponent(settings[1]);
      const mode = options.domains[domain];
      if (!mode) return json(res, 404, { error: 'unknown domain' });
      if (mode === 'unavailable') return json(res, 503, { error: 'maintenance' });
      return json(res, 200, {
        providerId: 'fakedns.example',
        providerName: 'FakeDNS',
        providerDisplayName: 'FakeDNS Domains',
        ...(mode === 'no_sync' ? {} : { urlSyncUX: `${base}/sync` }),
        urlAsyncUX: `${base}/async`,
        urlAPI: `${base}/api/${mode}`,
        width: 640,
        height: 720,
        urlControlPanel: 'https://panel.fakedns.example/dns/%domain%',
        nameServers: ['ns1.fakedns.example'],
      });
    }
    const template = /^\/api\/([a-z_]+)\/v2\/domainTemplates\/providers\/([^/]+)\/services\/([^/]+)$/.exec(
      url.pathname,
    );
    if (template) {
      const [, mode, providerId, serviceId] = template;
      if (mode === 'template_error') return json(res, 500, { error: 'boom' });
      const known = providerId === OUR_TEMPLATE.providerId && serviceId === OUR_TEMPLATE.serviceId;
      return mode === 'adopted' && known ? json(res, 200, { version: 1 }) : json(res, 404, { error: 'not found' });
    }
    const applyPath = /^\/sync\/v2\/domainTemplates\/providers\/([^/]+)\/services\/([^/]+)\/apply$/.exec(url.pathname);
    if (applyPath && req.method === 'GET') {
      void apply(url.search.slice(1)).then(({ status, outcome, location }) => {
        applied.push(outcome);
        if (location) {
          res.writeHead(302, { location });
          res.end();
        } else json(res, status, outcome);
      });
      return;
    }
    json(res, 404, { error: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `https://${options.host}:${port}`;
  const caFile = join(caDir, 'domain-connect-ca.pem');
  writeFileSync(caFile, ca.certPem);
  return {
    port,
    discovery: `${options.host}:${port}`,
    ca,
    caFile,
    requests,
    applied,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { generateKeyPairSync } from 'node:crypto';
import {
  buildApplyUrl,
  discoveryPrefix,
  parseSettings,
  publicKeyFromTxtRecords,
  publicKeyTxtRecords,
  unsignedApplyQuery,
  verifyApplyQuery,
} from './domain-connect';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

const request = {
  providerId: 'saas.example',
  serviceId: 'custom-domain',
  domain: 'example.com',
  host: 'shop',
  variables: [['target', 'edge.saas.net']] as [string, string][],
  groupId: 'cname',
  redirectUri: 'https://app.saas.example/back?x=1&y=2',
  state: 'a b/c',
};

describe('Domain Connect', () => {
  it('discovery prefixes: host, port and path; nothing else', () => {
    expect(discoveryPrefix('api.cloudflare.com/client/v4/dns/domainconnect')).toBe(
      'api.cloudflare.com/client/v4/dns/domainconnect',
    );
    expect(discoveryPrefix('domainconnect.virtucondomains.com')).toBe('domainconnect.virtucondomains.com');
    expect(discoveryPrefix('dc.provider.net:8443/')).toBe('dc.provider.net:8443');
    expect(discoveryPrefix('v=spf1 include:x')).toBeUndefined();
    expect(discoveryPrefix('evil.com@127.0.0.1')).toBeUndefined();
    expect(discoveryPrefix('nodots')).toBeUndefined();
  });

  it('settings: needs providerId and an https urlAPI; defaults width/height to 750', () => {
    expect(parseSettings({ providerName: 'x' })).toBeUndefined();
    expect(parseSettings({ providerId: 'p', urlAPI: 'http://insecure' })).toBeUndefined();
    expect(parseSettings({ providerId: 'p', urlAPI: 'https://api.p/', urlSyncUX: 'ftp://x' })).toEqual({
      providerId: 'p',
      providerName: 'p',
      providerDisplayName: 'p',
      urlSyncUX: undefined,
      urlAPI: 'https://api.p',
      width: 750,
      height: 750,
      urlControlPanel: undefined,
    });
  });

  it('the apply URL carries domain, host, variables, groupId, redirect_uri and state, RFC 3986 encoded', () => {
    const url = new URL(buildApplyUrl('https://dc.provider.net/', request));
    expect(url.pathname).toBe('/v2/domainTemplates/providers/saas.example/services/custom-domain/apply');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      domain: 'example.com',
      host: 'shop',
      target: 'edge.saas.net',
      groupId: 'cname',
      redirect_uri: 'https://app.saas.example/back?x=1&y=2',
      state: 'a b/c',
    });
    expect(url.search).toContain('state=a%20b%2Fc');
    expect(url.searchParams.has('sig')).toBe(false);
  });

  it('signed: key then sig last; sig verifies over the query without them, and only with our key', () => {
    const url = new URL(buildApplyUrl('https://dc.provider.net', request, { keyHost: '_dck1', privateKey }));
    const raw = url.search.slice(1);
    expect(raw.startsWith(`${unsignedApplyQuery(request)}&key=_dck1&sig=`)).toBe(true);
    expect(verifyApplyQuery(raw, publicKey)).toBe(true);
    expect(verifyApplyQuery(raw, other.publicKey)).toBe(false);
    expect(verifyApplyQuery(raw.replace('edge.saas.net', 'evil.example'), publicKey)).toBe(false);
  });

  it('publishes the public key as numbered TXT records under 255 bytes that reassemble to the key', () => {
    const records = publicKeyTxtRecords(privateKey);
    expect(records.length).toBeGreaterThan(1);
    records.forEach((r, i) => {
      expect(r.startsWith(`p=${i + 1},a=RS256,d=`)).toBe(true);
      expect(r.length).toBeLessThan(255);
    });
    const key = publicKeyFromTxtRecords([...records].reverse());
    expect(key.export({ type: 'spki', format: 'pem' })).toBe(publicKey.export({ type: 'spki', format: 'pem' }));
  });
});

import { bool, Infer, int, obj, oneOfValues, str } from '@app/kernel';
import { createPrivateKey, createPublicKey, createSign, createVerify, KeyObject } from 'node:crypto';

/** Why Domain Connect cannot be offered for a domain (SPEC 2.3). */
export const DOMAIN_CONNECT_REASONS = [
  'no_discovery_record',
  'settings_unavailable',
  'no_sync_support',
  'template_not_adopted',
  'lookup_failed',
] as const;
type DomainConnectReason = (typeof DOMAIN_CONNECT_REASONS)[number];

/** The fields of a DNS provider's settings document we use (`GET https://{_domainconnect}/v2/{domain}/settings`). */
export interface DomainConnectSettings {
  providerId: string;
  providerName: string;
  providerDisplayName: string;
  urlSyncUX?: string;
  urlAPI: string;
  width: number;
  height: number;
  urlControlPanel?: string;
}

/** What discovery found for a domain; the apply URL is built per request from it. */
export type DomainConnectDiscovery =
  | { supported: true; settings: DomainConnectSettings }
  | { supported: false; reason: DomainConnectReason; settings?: DomainConnectSettings };

/** The `domainConnect` object of the instructions (SPEC 2.3). */
export const domainConnectViewSchema = obj(
  {
    supported: bool,
    reason: oneOfValues(...DOMAIN_CONNECT_REASONS),
    providerId: str(),
    providerName: str(),
    providerDisplayName: str("The provider's own display name, preferred in UI"),
    applyUrl: str('Send the customer here to approve the change'),
    width: int(),
    height: int(),
    urlControlPanel: str(),
  },
  ['reason', 'providerId', 'providerName', 'providerDisplayName', 'applyUrl', 'width', 'height', 'urlControlPanel'],
);
export type DomainConnectView = Infer<typeof domainConnectViewSchema>;

const DEFAULT_WINDOW = 750; // the spec's default popup size

const httpsUrl = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? value.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
};
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : undefined;
const size = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 4000 ? value : DEFAULT_WINDOW;

/**
 * The `_domainconnect` TXT value is a URL prefix without scheme: a host, optional port, optional
 * path (`api.cloudflare.com/client/v4/dns/domainconnect`). Anything else is not a discovery record.
 */
export function discoveryPrefix(txt: string): string | undefined {
  const value = txt
    .trim()
    .replace(/^https:\/\//i, '')
    .replace(/\/+$/, '');
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~\-/]*)?$/.test(value)) return undefined;
  try {
    const url = new URL(`https://${value}`);
    return url.hostname.includes('.') || url.hostname === 'localhost' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A validated settings document, or undefined when it lacks what the sync flow needs to start. */
export function parseSettings(body: unknown): DomainConnectSettings | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const doc = body as Record<string, unknown>;
  const providerId = text(doc.providerId);
  const urlAPI = httpsUrl(doc.urlAPI);
  if (!providerId || !urlAPI) return undefined;
  const providerName = text(doc.providerName) ?? providerId;
  return {
    providerId,
    providerName,
    providerDisplayName: text(doc.providerDisplayName) ?? providerName,
    urlSyncUX: httpsUrl(doc.urlSyncUX),
    urlAPI,
    width: size(doc.width),
    height: size(doc.height),
    urlControlPanel: httpsUrl(doc.urlControlPanel),
  };
}

export interface ApplyRequest {
  /** Our template's provider and service ids. */
  providerId: string;
  serviceId: string;
  /** The root domain (zone) and the host inside it (`''` for the root itself). */
  domain: string;
  host: string;
  /** Template variables, in order. */
  variables: [string, string][];
  groupId?: string;
  redirectUri?: string;
  state?: string;
}

export interface ApplySigner {
  /** The `key` parameter: the host of the public key TXT records under syncPubKeyDomain. */
  keyHost: string;
  privateKey: KeyObject;
}

/** RFC 3986 encoding of a query value (spaces as %20, `!'()*` escaped too). */
const encodeQueryValue = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The query string before `key` and `sig`: exactly the bytes the signature covers. */
export function unsignedApplyQuery(request: ApplyRequest): string {
  const pairs: [string, string][] = [['domain', request.domain]];
  if (request.host) pairs.push(['host', request.host]);
  pairs.push(...request.variables);
  if (request.groupId) pairs.push(['groupId', request.groupId]);
  if (request.redirectUri) pairs.push(['redirect_uri', request.redirectUri]);
  if (request.state !== undefined && request.state !== '') pairs.push(['state', request.state]);
  return pairs.map(([k, v]) => `${encodeQueryValue(k)}=${encodeQueryValue(v)}`).join('&');
}

/** Base64 RSA-SHA256 over the query string (Domain Connect "Digitally Sign Requests"). */
function signQuery(query: string, privateKey: KeyObject): string {
  return createSign('RSA-SHA256').update(query, 'utf8').sign(privateKey, 'base64');
}

/**
 * `{urlSyncUX}/v2/domainTemplates/providers/{providerId}/services/{serviceId}/apply?...`; signed
 * requests end with `&key=<keyHost>&sig=<url-encoded base64 signature of everything before key>`.
 */
export function buildApplyUrl(urlSyncUX: string, request: ApplyRequest, signer?: ApplySigner): string {
  const base =
    `${urlSyncUX.replace(/\/+$/, '')}/v2/domainTemplates/providers/${encodeURIComponent(request.providerId)}` +
    `/services/${encodeURIComponent(request.serviceId)}/apply`;
  const query = unsignedApplyQuery(request);
  if (!signer) return `${base}?${query}`;
  const sig = signQuery(query, signer.privateKey);
  return `${base}?${query}&key=${encodeQueryValue(signer.keyHost)}&sig=${encodeQueryValue(sig)}`;
}

/** The signed part of an apply URL's raw query: every pair except `sig` and `key`, in order. */
function signedPortion(rawQuery: string): string {
  return rawQuery
    .split('&')
    .filter((pair) => !pair.startsWith('sig=') && !pair.startsWith('key='))
    .join('&');
}

/** What a DNS provider does with a signed apply URL: verify `sig` over the rest with the published key. */
export function verifyApplyQuery(rawQuery: string, publicKey: KeyObject): boolean {
  const sig = rawQuery.split('&').find((pair) => pair.startsWith('sig='));
  if (!sig) return false;
  const signature = Buffer.from(decodeURIComponent(sig.slice(4)), 'base64');
  return createVerify('RSA-SHA256').update(signedPortion(rawQuery), 'utf8').verify(publicKey, signature);
}

const TXT_CHUNK = 200; // with the `p=NN,a=RS256,d=` prefix, well under the 255 bytes of one TXT string

/**
 * The TXT records that publish the public key at `<keyHost>.<syncPubKeyDomain>`: the base64 DER
 * (SubjectPublicKeyInfo) split into numbered parts `p=1,a=RS256,d=...`.
 */
export function publicKeyTxtRecords(key: KeyObject | string): string[] {
  const publicKey = createPublicKey(typeof key === 'string' ? createPrivateKey(key) : key);
  const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const chunks = der.match(new RegExp(`.{1,${TXT_CHUNK}}`, 'g')) ?? [];
  return chunks.map((chunk, index) => `p=${index + 1},a=RS256,d=${chunk}`);
}

/** The public key from its TXT records (any order), as a DNS provider reassembles it. */
export function publicKeyFromTxtRecords(records: string[]): KeyObject {
  const parts = records
    .map((record) =>
      Object.fromEntries(record.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    )
    .filter((fields) => fields.p && fields.d && (fields.a ?? 'RS256') === 'RS256')
    .sort((a, b) => Number(a.p) - Number(b.p));
  const der = Buffer.from(parts.map((fields) => fields.d).join(''), 'base64');
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}

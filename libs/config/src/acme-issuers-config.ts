import { ConfigError, Env, raw, url } from './env-parsers';

/** One ACME certificate authority the service may order from, with its own account. */
export interface AcmeIssuerConfig {
  /** Short name shown on domains and in metrics (`letsencrypt`, `google`). */
  name: string;
  directoryUrl: string;
  /** CAA issuer domains that authorize this CA (RFC 8659 `issue` values), e.g. `letsencrypt.org`. */
  caaIdentities: string[];
  /** PEM file of extra CAs to trust for the directory's HTTPS (a private or test CA). */
  caFile?: string;
  /** External Account Binding (RFC 8555 section 7.3.4), for CAs that require one (ZeroSSL, Google). */
  eab?: { kid: string; hmacKey: string };
  /** ACME profile to ask for when the directory offers it (`shortlived`, `tlsserver`, `classic`). */
  profile?: string;
  email?: string;
  /** Our own count of the CA's limits (defaults: Let's Encrypt's); a raised account limit goes here. */
  limits: AcmeLimitOverrides;
  /** Renewals named to the CA through ARI skip the new-order budget (Let's Encrypt documents that exemption). */
  ariRenewalsExempt: boolean;
}

type AcmeLimitName = 'new_orders' | 'certificates_per_domain' | 'failed_validations';
type AcmeLimitOverrides = Partial<Record<AcmeLimitName, { capacity?: number; periodSeconds?: number }>>;
const LIMIT_NAMES: readonly AcmeLimitName[] = ['new_orders', 'certificates_per_domain', 'failed_validations'];

function limitsOf(value: unknown, variable: string): AcmeLimitOverrides {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(variable, 'limits must be an object');
  const limits: AcmeLimitOverrides = {};
  for (const [name, limit] of Object.entries(value)) {
    if (!LIMIT_NAMES.includes(name as AcmeLimitName))
      throw new ConfigError(variable, `limits may name ${LIMIT_NAMES.join(', ')} (got "${name}")`);
    const { capacity, periodSeconds } = (limit ?? {}) as Record<string, unknown>;
    const positive = (n: unknown) => n === undefined || (typeof n === 'number' && Number.isFinite(n) && n > 0);
    if (!positive(capacity) || !positive(periodSeconds))
      throw new ConfigError(variable, `limits.${name} needs a positive capacity and periodSeconds`);
    limits[name as AcmeLimitName] = { capacity: capacity as number, periodSeconds: periodSeconds as number };
  }
  return limits;
}

const isLetsEncrypt = (directoryUrl: string) => new URL(directoryUrl).hostname.endsWith('letsencrypt.org');

function jsonEnv(env: Env, name: string): unknown {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw new ConfigError(name, 'must be JSON');
  }
}

const LETS_ENCRYPT = 'https://acme-v02.api.letsencrypt.org/directory';
const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** The CAA identity of a well-known directory, so a single ACME_DIRECTORY_URL needs no more settings. */
function knownCaaIdentity(directoryUrl: string): string[] {
  const host = new URL(directoryUrl).hostname;
  if (host.endsWith('letsencrypt.org')) return ['letsencrypt.org'];
  if (host.endsWith('pki.goog')) return ['pki.goog'];
  if (host.endsWith('zerossl.com')) return ['sectigo.com', 'zerossl.com'];
  if (host.endsWith('buypass.com')) return ['buypass.com'];
  if (host.endsWith('ssl.com')) return ['ssl.com'];
  return [];
}

const caaList = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

/**
 * `ACME_ISSUERS` (a JSON array, tried in order) or, without it, one issuer from `ACME_DIRECTORY_URL`,
 * `ACME_CA_FILE`, `ACME_EMAIL`, `ACME_PROFILE`, `ACME_CAA_IDENTITIES` and `ACME_EAB_KID`/`ACME_EAB_HMAC_KEY`.
 */
export function acmeIssuers(env: Env): AcmeIssuerConfig[] {
  const json = raw(env, 'ACME_ISSUERS');
  if (json === undefined) return [singleIssuer(env)];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ConfigError('ACME_ISSUERS', 'must be a JSON array of issuers');
  }
  if (!Array.isArray(parsed) || parsed.length === 0)
    throw new ConfigError('ACME_ISSUERS', 'must be a non-empty JSON array of issuers');
  const issuers = parsed.map((item, index) => issuerFromJson(item, index, env));
  const names = new Set(issuers.map((issuer) => issuer.name));
  if (names.size !== issuers.length) throw new ConfigError('ACME_ISSUERS', 'must give each issuer its own name');
  return issuers;
}

function singleIssuer(env: Env): AcmeIssuerConfig {
  const directoryUrl = url(env, 'ACME_DIRECTORY_URL', ['https:', 'http:']) ?? LETS_ENCRYPT;
  const kid = raw(env, 'ACME_EAB_KID');
  const hmacKey = raw(env, 'ACME_EAB_HMAC_KEY');
  if (Boolean(kid) !== Boolean(hmacKey))
    throw new ConfigError(kid ? 'ACME_EAB_HMAC_KEY' : 'ACME_EAB_KID', 'must be set together with the other EAB value');
  const caa = raw(env, 'ACME_CAA_IDENTITIES');
  return {
    name: raw(env, 'ACME_ISSUER_NAME') ?? (directoryUrl === LETS_ENCRYPT ? 'letsencrypt' : 'acme'),
    directoryUrl,
    caaIdentities: caa ? caaList(caa) : knownCaaIdentity(directoryUrl),
    caFile: raw(env, 'ACME_CA_FILE'),
    eab: kid && hmacKey ? { kid, hmacKey } : undefined,
    profile: raw(env, 'ACME_PROFILE'),
    email: raw(env, 'ACME_EMAIL'),
    limits: limitsOf(jsonEnv(env, 'ACME_LIMITS'), 'ACME_LIMITS'),
    ariRenewalsExempt: isLetsEncrypt(directoryUrl),
  };
}

function issuerFromJson(item: unknown, index: number, env: Env): AcmeIssuerConfig {
  const at = `ACME_ISSUERS[${index}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw new ConfigError('ACME_ISSUERS', `${at} must be an object`);
  const fields = item as Record<string, unknown>;
  const text = (key: string, required = false): string | undefined => {
    const value = fields[key];
    if (value === undefined || value === null || value === '') {
      if (required) throw new ConfigError('ACME_ISSUERS', `${at}.${key} is required`);
      return undefined;
    }
    if (typeof value !== 'string') throw new ConfigError('ACME_ISSUERS', `${at}.${key} must be a string`);
    return value.trim();
  };
  const name = text('name', true) as string;
  if (!NAME.test(name))
    throw new ConfigError('ACME_ISSUERS', `${at}.name must be lowercase letters, digits, - or _ (got "${name}")`);
  const directoryUrl = url({ v: text('directoryUrl', true) }, 'v', ['https:', 'http:']) as string;
  const caa = fields.caaIdentities;
  if (caa !== undefined && (!Array.isArray(caa) || caa.some((value) => typeof value !== 'string')))
    throw new ConfigError('ACME_ISSUERS', `${at}.caaIdentities must be an array of strings`);
  const [kid, hmacKey] = [text('eabKid'), text('eabHmacKey')];
  if (Boolean(kid) !== Boolean(hmacKey))
    throw new ConfigError('ACME_ISSUERS', `${at}.eabKid and eabHmacKey must be given together`);
  return {
    name,
    directoryUrl,
    caaIdentities: caa ? caaList((caa as string[]).join(',')) : knownCaaIdentity(directoryUrl),
    caFile: text('caFile'),
    eab: kid && hmacKey ? { kid, hmacKey } : undefined,
    profile: text('profile') ?? raw(env, 'ACME_PROFILE'),
    email: text('email') ?? raw(env, 'ACME_EMAIL'),
    limits: limitsOf(fields.limits, 'ACME_ISSUERS'),
    ariRenewalsExempt:
      typeof fields.ariRenewalsExempt === 'boolean' ? fields.ariRenewalsExempt : isLetsEncrypt(directoryUrl),
  };
}

import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, Env, raw } from './env-parsers';

/** Domain Connect (domainconnect.org v2 synchronous flow) as a Service Provider. */
export interface DomainConnectConfig {
  /** Our providerId in the service template, usually our own domain. */
  providerId: string;
  serviceId: string;
  /** PEM of the RSA key that signs apply URLs; unset: unsigned URLs. */
  privateKeyPem?: string;
  /** The host of the public key TXT records under the template's syncPubKeyDomain (the `key` parameter). */
  keyHost: string;
  /** PEM file of extra CAs to trust for DNS providers' Domain Connect endpoints (tests). */
  caFile?: string;
}

const DC_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function domainConnectConfig(env: Env): DomainConnectConfig {
  const id = (name: string, fallback: string) => {
    const value = raw(env, name) ?? fallback;
    if (!DC_ID.test(value)) throw new ConfigError(name, 'may hold only letters, digits, dot, dash and underscore');
    return value;
  };
  const keyHost = raw(env, 'DOMAIN_CONNECT_KEY_HOST') ?? '_dcpubkeyv1';
  if (!/^[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*$/.test(keyHost)) {
    throw new ConfigError(
      'DOMAIN_CONNECT_KEY_HOST',
      'must be a DNS host name (labels of letters, digits, dash, underscore)',
    );
  }
  return {
    providerId: id('DOMAIN_CONNECT_PROVIDER_ID', 'custom-domains.example'),
    serviceId: id('DOMAIN_CONNECT_SERVICE_ID', 'custom-domain'),
    privateKeyPem: domainConnectKey(env),
    keyHost,
    caFile: raw(env, 'DOMAIN_CONNECT_CA_FILE'),
  };
}

/** DOMAIN_CONNECT_PRIVATE_KEY: the PEM itself (`\n` escapes allowed) or the path of a PEM file; RSA only. */
function domainConnectKey(env: Env): string | undefined {
  const value = raw(env, 'DOMAIN_CONNECT_PRIVATE_KEY');
  if (value === undefined) return undefined;
  let pem: string;
  try {
    pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFileSync(value, 'utf8');
  } catch (error) {
    throw new ConfigError('DOMAIN_CONNECT_PRIVATE_KEY', `cannot read the key file: ${(error as Error).message}`);
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error(`a ${key.asymmetricKeyType} key`);
  } catch (error) {
    throw new ConfigError(
      'DOMAIN_CONNECT_PRIVATE_KEY',
      `must be an RSA private key in PEM (${(error as Error).message})`,
    );
  }
  return pem;
}

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';

describe('DOMAIN_CONNECT_* settings', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

  it("defaults: our ids, the spec's key host, no key (unsigned apply URLs)", () => {
    expect(loadConfig({}, 'standalone').domainConnect).toEqual({
      providerId: 'custom-domains.example',
      serviceId: 'custom-domain',
      privateKeyPem: undefined,
      keyHost: '_dcpubkeyv1',
      caFile: undefined,
    });
  });

  it('takes the key as PEM, as PEM with \\n escapes, or as a file path', () => {
    expect(loadConfig({ DOMAIN_CONNECT_PRIVATE_KEY: rsa }, 'standalone').domainConnect.privateKeyPem?.trim()).toBe(
      rsa.trim(),
    );
    const escaped = rsa.replace(/\n/g, '\\n');
    expect(loadConfig({ DOMAIN_CONNECT_PRIVATE_KEY: escaped }, 'standalone').domainConnect.privateKeyPem?.trim()).toBe(
      rsa.trim(),
    );
    const dir = mkdtempSync(join(tmpdir(), 'dc-key-'));
    try {
      writeFileSync(join(dir, 'key.pem'), rsa);
      const config = loadConfig({ DOMAIN_CONNECT_PRIVATE_KEY: join(dir, 'key.pem') }, 'standalone');
      expect(config.domainConnect.privateKeyPem?.trim()).toBe(rsa.trim());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ DOMAIN_CONNECT_PRIVATE_KEY: ec }, 'DOMAIN_CONNECT_PRIVATE_KEY must be an RSA private key'],
    [{ DOMAIN_CONNECT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nnope' }, 'DOMAIN_CONNECT_PRIVATE_KEY must be an RSA'],
    [{ DOMAIN_CONNECT_PRIVATE_KEY: '/nonexistent/key.pem' }, 'DOMAIN_CONNECT_PRIVATE_KEY cannot read the key file'],
    [{ DOMAIN_CONNECT_PROVIDER_ID: 'a b' }, 'DOMAIN_CONNECT_PROVIDER_ID may hold only'],
    [{ DOMAIN_CONNECT_SERVICE_ID: 'x/y' }, 'DOMAIN_CONNECT_SERVICE_ID may hold only'],
    [{ DOMAIN_CONNECT_KEY_HOST: 'bad host' }, 'DOMAIN_CONNECT_KEY_HOST must be a DNS host name'],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env, 'standalone')).toThrow(`Invalid configuration: ${message}`);
  });
});

import { AppConfig } from '@app/config';
import { randomBase62 } from '@app/persistence';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A secret kept in DATA_DIR, so a restarted standalone keeps the same tokens. */
function localSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const value = randomBase62(32);
    writeFileSync(file, value, { mode: 0o600 });
    return value;
  }
}

/** Standalone runs with zero configuration: missing secrets are generated once and kept. */
export function withLocalSecrets(config: AppConfig): AppConfig & { adminTokenGenerated: boolean } {
  return {
    ...config,
    adminToken: config.adminToken ?? localSecret(config.dataDir, 'admin-token'),
    signingSecret: config.signingSecret ?? localSecret(config.dataDir, 'signing-secret'),
    encryptionKey: config.encryptionKey ?? localSecret(config.dataDir, 'encryption-key'),
    adminTokenGenerated: !config.adminToken,
  };
}

/** The address this standalone listens on, for `npm run admin` (apps/cli) to find it. */
export function writeApiUrl(dataDir: string, url: string): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'api-url'), `${url}\n`);
}

import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-ports';

export interface OidcIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A public client of the same issuer (no secret). */
  publicClientId: string;
  stop(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider (test/support/oidc-issuer-process.mjs, the `oidc-provider`
 * package) on a free port, with a confidential and a public client that may use any loopback
 * console callback.
 * Accounts (any password on its login page): ada, mallory, grace (@corp.example.com), unverified.
 */
export async function startOidcIssuer(): Promise<OidcIssuer> {
  const port = await freePort();
  const clientId = 'console';
  const clientSecret = 'console-test-secret-0123456789';
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-issuer-process.mjs')], {
    env: {
      ...process.env,
      PORT: String(port),
      CLIENT_ID: clientId,
      CLIENT_SECRET: clientSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the OIDC issuer did not start: ${output}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the OIDC issuer exited (${code}): ${output}`));
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    publicClientId: `${clientId}-public`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

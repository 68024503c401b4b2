import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './free-ports';

const PEBBLE = process.env.PEBBLE_BIN ?? '/usr/bin/pebble';

export interface Pebble {
  directoryUrl: string;
  /** The CA file to trust for the directory's HTTPS (ACME_CA_FILE). */
  caFile: string;
  stop(): Promise<void>;
}

/**
 * Let's Encrypt's ACME test server on loopback. It validates HTTP-01 against `httpPort` on the
 * address our DNS server gives for the hostname, and resolves through `dnsServer`.
 */
export async function startPebble(options: {
  dnsServer: string;
  httpPort: number;
  /** Lifetime of issued certificates in seconds (Pebble's default is about five years). */
  certificateValidityPeriod?: number;
}): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'));
  const [port, managementPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: join(dir, 'cert.pem'),
        privateKey: join(dir, 'key.pem'),
        httpPort: options.httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        ...(options.certificateValidityPeriod ? { certificateValidityPeriod: options.certificateValidityPeriod } : {}),
      },
    }),
  );
  const child = spawn(PEBBLE, ['-config', join(dir, 'config.json'), '-dnsserver', options.dnsServer], {
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Pebble generates its keys at start: seconds on a busy machine.
  await waitForPort(port, 30_000);
  return {
    directoryUrl: `https://127.0.0.1:${port}/dir`,
    caFile: join(dir, 'cert.pem'),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

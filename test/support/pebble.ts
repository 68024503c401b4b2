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
  /**
   * The management interface (same certificate as the directory): `/roots/0` and
   * `/intermediates/0` give this Pebble's CA chain, made afresh at each start, which tells two
   * Pebbles apart.
   */
  managementUrl: string;
  stop(): Promise<void>;
}

/**
 * How every Pebble here runs: validation at once, no good nonce refused, every order with fresh
 * authorizations (as a first order at a public CA).
 */
export const PEBBLE_ENV = { PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' };

export interface PebbleConfigOptions {
  httpPort: number;
  /** Lifetime of issued certificates in seconds (Pebble's default is about five years). */
  certificateValidityPeriod?: number;
  /** Accounts must carry an external account binding (RFC 8555 section 7.3.4) with one of `eabKeys`. */
  externalAccountBindingRequired?: boolean;
  /** EAB key ids to their HMAC keys, base64url without padding (Pebble decodes them so). */
  eabKeys?: Record<string, string>;
}

/** Free loopback ports, a TLS identity and `config.json` for one Pebble, written into `dir`. */
export async function writePebbleConfig(
  dir: string,
  options: PebbleConfigOptions,
): Promise<{ configFile: string; port: number; managementPort: number; certFile: string }> {
  const [port, managementPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
  const { certFile, keyFile } = loopbackCertificate(dir);
  const configFile = join(dir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: certFile,
        privateKey: keyFile,
        httpPort: options.httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: options.externalAccountBindingRequired ?? false,
        ...(options.eabKeys ? { externalAccountMACKeys: options.eabKeys } : {}),
        ...(options.certificateValidityPeriod ? { certificateValidityPeriod: options.certificateValidityPeriod } : {}),
      },
    }),
  );
  return { configFile, port, managementPort, certFile };
}

/**
 * Let's Encrypt's ACME test server on loopback. It validates HTTP-01 against `httpPort` on the
 * address our DNS server gives for the hostname, and resolves through `dnsServer`.
 */
export async function startPebble(options: PebbleConfigOptions & { dnsServer: string }): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), 'pebble-'));
  const { configFile, port, managementPort, certFile } = await writePebbleConfig(dir, options);
  const child = spawn(PEBBLE, ['-config', configFile, '-dnsserver', options.dnsServer], {
    env: { ...process.env, ...PEBBLE_ENV },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Pebble generates its keys at start: seconds on a busy machine. The management port opens in
    // a goroutine of its own, so it may come a moment after the directory's.
    await waitForPort(port, 30_000);
    await waitForPort(managementPort);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    directoryUrl: `https://127.0.0.1:${port}/dir`,
    caFile: certFile,
    managementUrl: `https://127.0.0.1:${managementPort}`,
    stop,
  };
}

/**
 * A self-signed P-256 certificate for localhost and 127.0.0.1, valid two days, written into `dir`
 * as cert.pem and key.pem: the TLS identity of a loopback test server (it is its own CA file). A
 * common name of its own keeps two such certificates apart in one CA file.
 */
export function loopbackCertificate(dir: string, commonName = 'localhost'): { certFile: string; keyFile: string } {
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
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
      keyFile,
      '-out',
      certFile,
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}

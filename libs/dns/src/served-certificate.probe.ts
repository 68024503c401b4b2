import { probeNameOf } from '@app/hostname-rules';
import type { ServedCertificate } from '@app/hostname-rules';
import { SecureContext, connect, createSecureContext } from 'node:tls';
import { DnsResolver } from './dns-resolver';

/** Short: an unreachable edge must not hold a monitor slot for long. */
const TIMEOUT_MS = 3_000;

/** Whether a certificate's names cover the hostname (exact or one-label wildcard). Pure. */
export function certificateCovers(
  subjectAltName: string | undefined,
  commonName: string | undefined,
  hostname: string,
): boolean {
  const names = (subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
  if (!names.length && commonName) names.push(commonName.toLowerCase());
  return names.some(
    (name) =>
      name === hostname || (name.startsWith('*.') && hostname.slice(hostname.indexOf('.') + 1) === name.slice(2)),
  );
}

/** The CN of an X509 subject (one `KEY=value` per line). */
function commonNameOf(subject: string): string | undefined {
  return /^CN=(.*)$/m.exec(subject)?.[1];
}

/**
 * Connects to the hostname as a visitor would (its resolved address, SNI = hostname) and reads the
 * certificate actually served. Chain trust is not judged here: the edge serves what the CA issued.
 */
export class ServedCertificateProbe {
  /**
   * One TLS context for every probe: without it each connection built its own, loading the root
   * certificates again (11% of the monitor's CPU at 5,500 probes/s, one in twelve reading TLS).
   */
  private readonly context: SecureContext = createSecureContext();

  constructor(
    private readonly resolver: DnsResolver,
    private readonly port: number,
  ) {}

  /** `hostname` may be a wildcard: a name under it is asked for (`probeNameOf`). */
  async check(connected: string, now = new Date()): Promise<ServedCertificate> {
    const hostname = probeNameOf(connected);
    const [address] = await this.resolver.a(hostname).catch(() => []);
    if (!address) return { outcome: 'unreachable', reason: 'no address to connect to' };
    return new Promise((resolve) => {
      const socket = connect({
        host: address,
        port: this.port,
        servername: hostname,
        secureContext: this.context,
        rejectUnauthorized: false,
        timeout: TIMEOUT_MS,
      });
      const done = (result: ServedCertificate) => {
        socket.destroy();
        resolve(result);
      };
      socket.once('secureConnect', () => {
        // The X509 view reads only the fields asked for; getPeerCertificate() builds every field (three
        // fingerprints, the public key): ~50 us more a check, measured.
        const cert = socket.getPeerX509Certificate();
        if (!cert) return done({ outcome: 'unreachable', reason: 'no certificate served' });
        const expiresAt = new Date(cert.validTo);
        const at = { expiresAt: expiresAt.toISOString() };
        if (!certificateCovers(cert.subjectAltName, commonNameOf(cert.subject), hostname)) {
          return done({ outcome: 'wrong_name', ...at, reason: 'the certificate served does not name the hostname' });
        }
        if (now < new Date(cert.validFrom) || now >= expiresAt) {
          return done({ outcome: 'outside_validity', ...at, reason: 'the certificate served is outside its validity' });
        }
        done({ outcome: 'valid', ...at });
      });
      socket.once('timeout', () => done({ outcome: 'unreachable', reason: 'TLS handshake timed out' }));
      socket.once('error', (error: Error) =>
        done({ outcome: 'unreachable', reason: `TLS handshake failed: ${error.message}` }),
      );
    });
  }
}

export type { ServedCertificate };

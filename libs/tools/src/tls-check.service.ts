import { APP_CONFIG, AppConfig } from '@app/config';
import { DnsLookupError, DnsResolver } from '@app/dns';
import { checkResolvedAddresses, normalizeLookupHostname } from '@app/hostname-rules';
import { DomainError, arrayOf, bool, dateTime, described, Infer, int, obj, str } from '@app/kernel';
import { Inject, Injectable } from '@nestjs/common';
import { isIPv4 } from 'node:net';
import { DetailedPeerCertificate, PeerCertificate, TLSSocket, checkServerIdentity, connect } from 'node:tls';

const TIMEOUT_MS = 5_000;
const DAY_MS = 86_400_000;
const MAX_CHAIN = 10;

const chainCertificateSchema = obj({
  subject: str(),
  issuer: str(),
  serialNumber: str(),
  validFrom: dateTime(),
  validTo: dateTime(),
  subjectAltNames: arrayOf(str()),
  fingerprint256: str(),
});
type CertificateView = Infer<typeof chainCertificateSchema>;

export const tlsCheckResultSchema = obj(
  {
    hostname: str(),
    port: int(),
    address: str('The vetted public address connected to (SNI carries the hostname)'),
    connected: bool,
    error: str('Why the connection or handshake failed (connected: false)'),
    protocol: str(),
    chain: described(
      arrayOf(chainCertificateSchema),
      'Leaf first, as the server sent it (plus what the verifier linked from the system roots)',
    ),
    daysToExpiry: int(),
    expired: bool,
    hostnameMatches: bool,
    hostnameError: str(),
    trusted: described(bool, 'Whether the chain verifies against the system roots'),
    verificationError: str(),
  },
  [
    'error',
    'protocol',
    'chain',
    'daysToExpiry',
    'expired',
    'hostnameMatches',
    'hostnameError',
    'trusted',
    'verificationError',
  ],
);
export type TlsCheckResult = Infer<typeof tlsCheckResultSchema>;

const distinguishedName = (name: Record<string, string | string[]> | undefined) =>
  Object.entries(name ?? {})
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');

function view(cert: PeerCertificate): CertificateView {
  return {
    subject: distinguishedName(cert.subject as unknown as Record<string, string>),
    issuer: distinguishedName(cert.issuer as unknown as Record<string, string>),
    serialNumber: cert.serialNumber,
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: new Date(cert.valid_to).toISOString(),
    subjectAltNames: (cert.subjectaltname ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    fingerprint256: cert.fingerprint256,
  };
}

/** The chain as linked by Node: leaf, then each issuer, until a self-signed one or a loop. */
function chainOf(leaf: DetailedPeerCertificate): CertificateView[] {
  const out: CertificateView[] = [];
  const seen = new Set<string>();
  for (let cert: DetailedPeerCertificate | undefined = leaf; cert?.raw && out.length < MAX_CHAIN;) {
    if (seen.has(cert.fingerprint256)) break;
    seen.add(cert.fingerprint256);
    out.push(view(cert));
    cert = cert.issuerCertificate;
  }
  return out;
}

const fieldError = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  new DomainError('bad_request', message, { ...extra, fields: [{ field, problems: [message] }] });

/**
 * The TLS certificate tool. SSRF: the hostname is resolved once, every address must be public (or
 * in OUTBOUND_ALLOW_CIDRS), and the socket goes to the vetted address itself with SNI set to the
 * name, so a second resolution (DNS rebinding) cannot redirect it. Only TLS_CHECK_PORTS are reached.
 */
@Injectable()
export class TlsCheckTool {
  constructor(
    private readonly resolver: DnsResolver,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(input: string, port = 443, now = new Date()): Promise<TlsCheckResult> {
    const hostname = normalizeLookupHostname(input);
    if (!this.config.tlsCheckPorts.includes(port)) {
      throw fieldError('port', `port must be one of ${this.config.tlsCheckPorts.join(', ')} (got ${port})`);
    }
    const address = await this.vettedAddress(hostname);
    const result = await this.handshake(hostname, address, port, now);
    return { hostname, port, address, ...result };
  }

  private async vettedAddress(hostname: string): Promise<string> {
    let addresses: string[];
    try {
      addresses = await this.resolver.addresses(hostname);
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      throw new DomainError('service_unavailable', `Could not resolve ${hostname} (${error.code}); try again`, {
        reason: 'dns_lookup_failed',
        code: error.code,
      });
    }
    if (!addresses.length) {
      throw fieldError('hostname', `${hostname} does not resolve to any address`, { reason: 'not_resolving' });
    }
    const check = checkResolvedAddresses(addresses, this.config.outboundAllowCidrs);
    if (check.blocked) {
      const list = check.offending.map((o) => o.reason).join('; ');
      throw fieldError(
        'hostname',
        `Refusing to connect to ${hostname}: it resolves to a non-public address (${list})`,
        {
          reason: 'ssrf_blocked',
          addresses: check.offending.map((o) => o.address),
        },
      );
    }
    return addresses.find((a) => isIPv4(a)) ?? addresses[0];
  }

  private handshake(
    hostname: string,
    address: string,
    port: number,
    now: Date,
  ): Promise<Omit<TlsCheckResult, 'hostname' | 'port' | 'address'>> {
    return new Promise((resolve) => {
      const socket: TLSSocket = connect({ host: address, port, servername: hostname, rejectUnauthorized: false });
      const timer = setTimeout(
        () => done({ connected: false, error: `no TLS handshake within ${TIMEOUT_MS} ms` }),
        TIMEOUT_MS,
      );
      function done(result: Omit<TlsCheckResult, 'hostname' | 'port' | 'address'>) {
        clearTimeout(timer);
        socket.destroy();
        resolve(result);
      }
      socket.on('error', (error: NodeJS.ErrnoException) =>
        done({ connected: false, error: error.code ? `${error.code}: ${error.message}` : error.message }),
      );
      socket.once('secureConnect', () => {
        const leaf = socket.getPeerCertificate(true);
        if (!leaf?.raw)
          return done({ connected: true, protocol: socket.getProtocol() ?? undefined, error: 'no certificate served' });
        const identity = checkServerIdentity(hostname, leaf);
        const validTo = new Date(leaf.valid_to).getTime();
        const authError = socket.authorizationError as (Error & { code?: string }) | string | null;
        done({
          connected: true,
          protocol: socket.getProtocol() ?? undefined,
          chain: chainOf(leaf),
          daysToExpiry: Math.floor((validTo - now.getTime()) / DAY_MS),
          expired: validTo <= now.getTime(),
          hostnameMatches: !identity,
          ...(identity ? { hostnameError: identity.message } : {}),
          trusted: socket.authorized,
          ...(socket.authorized || !authError
            ? {}
            : { verificationError: typeof authError === 'string' ? authError : (authError.code ?? authError.message) }),
        });
      });
    });
  }
}

import { DnsResolver, ServedCertificateProbe } from '@app/dns';
import { DnsServer, TestCertificate, issueCertificate, startDnsServer } from '@test/support';
import { AddressInfo } from 'node:net';
import { Server, createSecureContext, createServer } from 'node:tls';

/**
 * The served-certificate check against a real TLS server on loopback, found through a real DNS
 * server: the certificate it reads is the one the SNI name gets.
 */
describe('ServedCertificateProbe', () => {
  const day = 86_400_000;
  /** A certificate's times have whole seconds. */
  const seconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString();
  const served = new Map<string, TestCertificate>([
    ['shop.example.com', issueCertificate({ hostnames: ['shop.example.com'] })],
    ['wild.example.com', issueCertificate({ hostnames: ['*.example.com'], commonName: 'wildcard' })],
    ['cn-only.example.com', issueCertificate({ hostnames: [], commonName: 'cn-only.example.com' })],
    ['other.example.com', issueCertificate({ hostnames: ['someone-else.example.com'] })],
    [
      'expired.example.com',
      issueCertificate({
        hostnames: ['expired.example.com'],
        notBefore: new Date(Date.now() - 90 * day),
        notAfter: new Date(Date.now() - day),
      }),
    ],
  ]);
  let dns: DnsServer;
  let tls: Server;
  let probe: ServedCertificateProbe;

  beforeAll(async () => {
    const contexts = new Map(
      [...served].map(([name, cert]) => [name, createSecureContext({ key: cert.keyPem, cert: cert.certPem })]),
    );
    tls = createServer({ SNICallback: (name, cb) => cb(null, contexts.get(name)) }, (socket) => socket.end());
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    dns = await startDnsServer(
      Object.fromEntries(
        [...served.keys(), 'no-tls.example.com'].map((name) => [name, [{ type: 'A', data: '127.0.0.1' }]]),
      ),
    );
    probe = new ServedCertificateProbe(
      new DnsResolver({ servers: [dns.address] }),
      (tls.address() as AddressInfo).port,
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => tls?.close(resolve));
    await dns?.close();
  });

  it('reads a valid certificate naming the hostname, with its expiry', async () => {
    await expect(probe.check('shop.example.com')).resolves.toEqual({
      outcome: 'valid',
      expiresAt: seconds(served.get('shop.example.com')!.notAfter),
    });
  });

  it('accepts a one-label wildcard and, without names, the subject CN', async () => {
    await expect(probe.check('wild.example.com')).resolves.toMatchObject({ outcome: 'valid' });
    await expect(probe.check('cn-only.example.com')).resolves.toMatchObject({ outcome: 'valid' });
  });

  it('tells a certificate for another name and one outside its validity', async () => {
    await expect(probe.check('other.example.com')).resolves.toMatchObject({
      outcome: 'wrong_name',
      reason: 'the certificate served does not name the hostname',
    });
    await expect(probe.check('expired.example.com')).resolves.toMatchObject({
      outcome: 'outside_validity',
      expiresAt: seconds(served.get('expired.example.com')!.notAfter),
    });
  });

  it('reports a failed handshake and a name without an address as unreachable', async () => {
    // No context for this SNI name: the server aborts the handshake.
    await expect(probe.check('no-tls.example.com')).resolves.toMatchObject({ outcome: 'unreachable' });
    await expect(probe.check('nowhere.example.com')).resolves.toEqual({
      outcome: 'unreachable',
      reason: 'no address to connect to',
    });
  });
});

import { issueCertificate, testCertificateAuthority } from '@test/support';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { post } from '../libs/webhooks/src/node/http-post';

/**
 * A delivery to an https URL goes to the checked address with TLS for the URL's name (SNI and the
 * name the certificate is checked against), and a certificate the system does not trust fails it.
 */
describe('webhook POST over TLS to a pinned address', () => {
  const ca = testCertificateAuthority('Webhook Test CA');
  const leaf = issueCertificate({ hostnames: ['hooks.test'], issuer: ca });
  const names: string[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // The name the client asks for, read from its hello (before the client judges the certificate).
    const SNICallback = (name: string, done: (error: null) => void) => {
      names.push(name);
      done(null);
    };
    server = createServer({ key: leaf.keyPem, cert: leaf.chainPem, SNICallback }, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('names the URL host in the handshake and refuses a certificate from an untrusted CA', async () => {
    const target = { url: new URL(`https://hooks.test:${port}/hook`), host: 'hooks.test', addresses: ['127.0.0.1'] };
    await expect(post(target, Buffer.from('{}'), {}, 5_000)).rejects.toMatchObject({
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(names).toEqual(['hooks.test']);
  });
});

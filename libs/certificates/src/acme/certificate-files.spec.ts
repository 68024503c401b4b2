import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { certificateFacts, certificateRequest } from './certificate-files';

/** A leaf with a given serial, signed by a CA whose key identifier is given: made by openssl, not by the code under test. */
function leafWith(serialHex: string, akiHex: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'certid-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    const ski = akiHex.match(/../g)!.join(':');
    openssl(
      'req',
      '-x509',
      ...ec,
      '-days',
      '2',
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-subj',
      '/CN=Test CA',
      '-addext',
      `subjectKeyIdentifier=${ski}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    );
    openssl('req', '-new', ...ec, '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=example.com');
    writeFileSync(at('ext.cnf'), 'authorityKeyIdentifier=keyid:always\nsubjectAltName=DNS:example.com\n');
    openssl(
      'x509',
      '-req',
      '-in',
      at('leaf.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-set_serial',
      `0x${serialHex}`,
      '-days',
      '2',
      '-extfile',
      at('ext.cnf'),
      '-out',
      at('leaf.pem'),
    );
    return readFileSync(at('leaf.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('certificate files', () => {
  it('names a certificate as RFC 9773 section 4.1 does (its own example values)', () => {
    // RFC 9773 4.1: keyIdentifier 69:88:5B:6B:87:46:40:41:E1:B3:7B:84:7B:A0:AE:2C:DE:01:C8:D4 and
    // serial 00:87:65:43:21 give "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE".
    const pem = leafWith('87654321', '69885B6B87464041E1B37B847BA0AE2CDE01C8D4');
    expect(certificateFacts(pem).certId).toBe('aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE');
  });

  it('makes a P-256 key and a CSR naming every hostname', async () => {
    const request = await certificateRequest(['shop.example.com', 'www.shop.example.com']);
    expect(request.keyPem).toContain('BEGIN PRIVATE KEY');
    const text = execFileSync('openssl', ['req', '-inform', 'DER', '-noout', '-text'], {
      input: request.csrDer,
    }).toString();
    expect(text).toContain('CN = shop.example.com');
    expect(text).toMatch(/DNS:shop\.example\.com, DNS:www\.shop\.example\.com/);
  });

  it('reads validity and issuer from the leaf of a chain', () => {
    const pem = leafWith('01', '0102030405060708090A0B0C0D0E0F1011121314');
    const facts = certificateFacts(pem + pem);
    expect(facts.notAfter.getTime()).toBe(new Date(new X509Certificate(pem).validTo).getTime());
    expect(facts.issuer).toBe('Test CA');
  });
});

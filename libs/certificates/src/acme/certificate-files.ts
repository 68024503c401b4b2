import 'reflect-metadata'; // @peculiar/x509 resolves its parsers through tsyringe, which needs it
import * as x509 from '@peculiar/x509';
import { X509Certificate, generateKeyPairSync, webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/**
 * The certificate's own data: a fresh key and CSR for an order, what a PEM chain says (validity,
 * issuer), and the RFC 9773 CertID that names it in ACME Renewal Information. Parsing and DER are
 * left to @peculiar/x509 and node:crypto.
 */
export interface CertificateRequest {
  keyPem: string;
  csrDer: Buffer;
}

export async function certificateRequest(names: string[]): Promise<CertificateRequest> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const subtle = webcrypto.subtle;
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const keys = {
    privateKey: await subtle.importKey('pkcs8', privateKey.export({ type: 'pkcs8', format: 'der' }), algorithm, false, [
      'sign',
    ]),
    publicKey: await subtle.importKey('spki', publicKey.export({ type: 'spki', format: 'der' }), algorithm, true, [
      'verify',
    ]),
  };
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `CN=${names[0]}`,
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value })))],
  });
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    csrDer: Buffer.from(csr.rawData),
  };
}

export interface CertificateFacts {
  notBefore: Date;
  notAfter: Date;
  /** The issuing CA's common name (or its whole subject when it has none). */
  issuer: string;
  /** RFC 9773 section 4.1: base64url(authority key identifier) "." base64url(serial number DER). */
  certId?: string;
}

/** What the leaf (the first certificate of a PEM chain) says. */
export function certificateFacts(chainPem: string): CertificateFacts {
  const leafPem = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/.exec(chainPem)?.[0] ?? chainPem;
  const leaf = new X509Certificate(leafPem);
  const issuer = /(?:^|\n)CN=([^\n]+)/.exec(leaf.issuer)?.[1] ?? leaf.issuer.replace(/\n/g, ', ');
  return {
    notBefore: new Date(leaf.validFrom),
    notAfter: new Date(leaf.validTo),
    issuer,
    certId: renewalCertId(leafPem),
  };
}

/** Undefined when the certificate has no authority key identifier (then it cannot be named to ARI). */
function renewalCertId(leafPem: string): string | undefined {
  const cert = new x509.X509Certificate(leafPem);
  const aki = cert.getExtension(x509.AuthorityKeyIdentifierExtension);
  if (!aki?.keyId) return undefined;
  // The serial's DER content octets: a positive INTEGER whose first bit is set starts with a zero
  // octet (the RFC 9773 example, 00 87 65 43 21), which @peculiar/x509's hex leaves out.
  const hex = cert.serialNumber.length % 2 ? `0${cert.serialNumber}` : cert.serialNumber;
  const digits = Buffer.from(hex, 'hex');
  const serial = digits[0] >= 0x80 ? Buffer.concat([Buffer.of(0), digits]) : digits;
  return `${Buffer.from(aki.keyId, 'hex').toString('base64url')}.${serial.toString('base64url')}`;
}

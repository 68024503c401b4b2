import { KeyObject, createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { FlattenedJWSInput, FlattenedSign, JWK, base64url, exportJWK } from 'jose';

/**
 * The account key and the JWS every ACME POST is signed with (RFC 8555 section 6.2), on `jose`.
 * Accounts use ECDSA P-256 (ES256), which every public CA accepts.
 */
export class AccountKey {
  private constructor(
    readonly privateKey: KeyObject,
    readonly jwk: JWK,
  ) {}

  static generate(): string {
    return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
  }

  static async fromPem(pem: string): Promise<AccountKey> {
    const privateKey = createPrivateKey(pem);
    const { kty, crv, x, y } = await exportJWK(createPublicKey(privateKey));
    return new AccountKey(privateKey, { kty, crv, x, y });
  }

  /** RFC 7638 thumbprint: the members required for EC keys, in lexicographic order. */
  thumbprint(): string {
    const { crv, kty, x, y } = this.jwk;
    return base64url.encode(createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest());
  }

  /** The HTTP-01 key authorization of a challenge token (RFC 8555 section 8.1). */
  keyAuthorization(token: string): string {
    return `${token}.${this.thumbprint()}`;
  }

  /** The TXT value of a DNS-01 challenge (RFC 8555 section 8.4): base64url SHA-256 of the key authorization. */
  dnsTxtValue(token: string): string {
    return createHash('sha256').update(this.keyAuthorization(token)).digest('base64url');
  }

  /** A request body: `kid` once the account exists, else the public key itself (newAccount). */
  async sign(url: string, nonce: string, payload: unknown, kid?: string): Promise<FlattenedJWSInput> {
    const body = payload === undefined ? new Uint8Array() : new TextEncoder().encode(JSON.stringify(payload));
    const header = kid ? { alg: 'ES256', nonce, url, kid } : { alg: 'ES256', nonce, url, jwk: this.jwk };
    return new FlattenedSign(body).setProtectedHeader(header).sign(this.privateKey);
  }

  /** External Account Binding (RFC 8555 section 7.3.4): our public key signed with the CA's HMAC key. */
  async externalAccountBinding(url: string, kid: string, hmacKey: string): Promise<FlattenedJWSInput> {
    const key = base64url.decode(hmacKey);
    return new FlattenedSign(new TextEncoder().encode(JSON.stringify(this.jwk)))
      .setProtectedHeader({ alg: 'HS256', kid, url })
      .sign(key);
  }
}

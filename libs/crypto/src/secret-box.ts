import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts secrets at rest (certificate keys, webhook signing secrets, ACME account keys) with
 * AES-256-GCM under ENCRYPTION_KEY. Output: `v1.<iv>.<tag>.<ciphertext>` in base64url, so a
 * tampered or foreign value fails to open instead of decrypting to garbage.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** Any string of 32+ characters; it is hashed to the 256-bit key. */
  constructor(secret: string) {
    if (secret.length < 32) throw new Error('The encryption key must be at least 32 characters');
    this.key = createHash('sha256').update(secret).digest();
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('k'.repeat(32));

  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('-----BEGIN PRIVATE KEY-----\nabc');
    const b = box.seal('-----BEGIN PRIVATE KEY-----\nabc');
    expect(a).not.toBe(b);
    expect(a).not.toContain('PRIVATE');
    expect(box.open(a)).toBe('-----BEGIN PRIVATE KEY-----\nabc');
  });

  it('refuses tampered values and other keys', () => {
    const sealed = box.seal('secret');
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('Not a sealed secret');
    expect(() => new SecretBox('short')).toThrow();
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { base62, idempotentId, newId, randomBase62 } from './ids';

/** What derivedId('dom', 'ws_1', 'key-1') answered before idempotentId took its place. */
const DOM_WS1_KEY1 = 'dom_7JvjXdzq8mdWlrAVIkrC5U';

describe('ids', () => {
  it('have a prefix and a fixed-width base62 body', () => {
    for (let i = 0; i < 500; i++) expect(newId('ws')).toMatch(/^ws_[0-9A-Za-z]{22}$/);
    expect(randomBase62(32)).toHaveLength(43);
  });

  it('derive the same id from the same workspace and key, and ids of the same shape', () => {
    const id = idempotentId('dom', 'ws_1', 'key-1');
    expect(id).toMatch(/^dom_[0-9A-Za-z]{22}$/);
    expect(idempotentId('dom', 'ws_1', 'key-1')).toBe(id);
    expect(idempotentId('dom', 'ws_2', 'key-1')).not.toBe(id);
    // The separator keeps (a, "b\nc") and ("a\nb", c) apart only if keys cannot hold a newline: they cannot.
    expect(idempotentId('dom', 'ws_1', 'key-2')).not.toBe(id);
  });

  it('mint a new id without a key', () => {
    expect(idempotentId('dom', 'ws_1', undefined)).toMatch(/^dom_[0-9A-Za-z]{22}$/);
    expect(idempotentId('dom', 'ws_1', undefined)).not.toBe(idempotentId('dom', 'ws_1', undefined));
  });

  it('keep the ids derived before: base62 and hex of the same digest', () => {
    expect(idempotentId('dom', 'ws_1', 'key-1')).toBe(DOM_WS1_KEY1);
    expect(idempotentId('pur', 'ws_1', 'key-1', 'hex')).toBe(
      `pur_${createHash('sha256').update('ws_1\nkey-1').digest('hex').slice(0, 32)}`,
    );
  });

  it('write base62 as the BigInt conversion they replaced did, digit for digit', () => {
    const reference = (bytes: Buffer) => {
      const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
      let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
      let out = '';
      while (value > 0n) {
        out = alphabet[Number(value % 62n)] + out;
        value /= 62n;
      }
      return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), '0');
    };
    const cases = [
      Buffer.alloc(16),
      Buffer.alloc(16, 0xff),
      Buffer.from([0, 0, 1]),
      Buffer.from([61]),
      Buffer.from([62]),
    ];
    for (let i = 0; i < 2_000; i++) cases.push(randomBytes(1 + (i % 40)));
    for (const bytes of cases) expect(base62(bytes)).toBe(reference(bytes));
  });

  it('never repeat across the pool refills of public ids', () => {
    const ids = new Set(Array.from({ length: 2_000 }, () => newId('x')));
    expect(ids.size).toBe(2_000);
  });
});

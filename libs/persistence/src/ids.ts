import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of random bytes, left-padded to the full width so lengths never vary. */
export function randomBase62(bytes: number): string {
  return base62(randomBytes(bytes));
}

function base62(bytes: Buffer): string {
  const width = Math.ceil((bytes.length * 8) / Math.log2(62));
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}

/** A prefixed public id such as `ws_3kTMd92jQ0bXh7PLvY1n2a` (16 random bytes). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}

/**
 * A public id of the same shape as `newId`, derived from `parts` (a workspace and an Idempotency-Key):
 * a retry whose first answer was lost reaches the record its first try made instead of a new one.
 */
export function derivedId(prefix: string, ...parts: string[]): string {
  return `${prefix}_${base62(createHash('sha256').update(parts.join('\n')).digest().subarray(0, 16))}`;
}

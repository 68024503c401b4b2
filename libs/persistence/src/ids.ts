import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of random bytes, left-padded to the full width so lengths never vary. */
export function randomBase62(bytes: number): string {
  const width = Math.ceil((bytes * 8) / Math.log2(62));
  let value = BigInt(`0x${randomBytes(bytes).toString('hex')}`);
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

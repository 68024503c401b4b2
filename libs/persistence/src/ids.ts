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
 * The id of a record a create makes: minted by `newId`, or, with an Idempotency-Key, derived from the
 * workspace and the key, so a retry whose first answer was lost reaches the record its first try made
 * instead of a new one. The derived body is the first 16 bytes of a SHA-256 of both, in base62 (the
 * shape of `newId`) or in `hex`, the purchases' encoding since their first derived id (kept: a retry
 * or a resent form across an upgrade must find the purchase its first try made).
 */
export function idempotentId(
  prefix: string,
  workspaceId: string,
  idempotencyKey: string | undefined,
  encoding: 'base62' | 'hex' = 'base62',
): string {
  if (!idempotencyKey) return newId(prefix);
  const digest = createHash('sha256').update(`${workspaceId}\n${idempotencyKey}`).digest().subarray(0, 16);
  return `${prefix}_${encoding === 'hex' ? digest.toString('hex') : base62(digest)}`;
}

import { createHash, randomBytes, randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 of fresh random bytes, left-padded to the full width so lengths never vary (secrets use it). */
export function randomBase62(bytes: number): string {
  return base62(randomBytes(bytes));
}

/**
 * The bytes as one big-endian number in base62, left-padded to the width of the largest one. Long
 * division by 62 over the bytes: the same digits as a BigInt conversion at a tenth of its cost.
 */
export function base62(bytes: Uint8Array): string {
  const width = Math.ceil((bytes.length * 8) / Math.log2(62));
  const digits = Array.from(bytes);
  let out = '';
  for (let start = 0; start < digits.length;) {
    let remainder = 0;
    for (let i = start; i < digits.length; i++) {
      const value = remainder * 256 + digits[i];
      digits[i] = Math.floor(value / 62);
      remainder = value % 62;
    }
    out = BASE62[remainder] + out;
    while (start < digits.length && digits[start] === 0) start++;
  }
  return out.padStart(width, '0');
}

/**
 * Public ids take their random bytes from a pool filled 4 KiB at a time: one CSPRNG call (with its
 * fork check, a getpid(2) each) per 256 ids instead of one per id. Secrets do not (randomBase62):
 * nothing of a secret not yet made waits in memory.
 */
const ID_POOL_BYTES = 4096;
let idPool = Buffer.alloc(0);
let idPoolUsed = 0;

function idBytes(count: number): Uint8Array {
  if (idPoolUsed + count > idPool.length) {
    idPool = randomFillSync(Buffer.allocUnsafe(ID_POOL_BYTES));
    idPoolUsed = 0;
  }
  idPoolUsed += count;
  return idPool.subarray(idPoolUsed - count, idPoolUsed);
}

/** A prefixed public id such as `ws_3kTMd92jQ0bXh7PLvY1n2a` (16 random bytes). */
export function newId(prefix: string): string {
  return `${prefix}_${base62(idBytes(16))}`;
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

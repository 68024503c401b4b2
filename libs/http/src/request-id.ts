import { randomFillSync } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-service-request-id';

const ID_BYTES = 12;
/** Random bytes drawn in blocks: one `randomFillSync` call per 341 ids instead of one per request. */
const POOL_BYTES = ID_BYTES * 341;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `req_` and 12 random bytes in hex: unique enough to find one request in the logs. */
export function newRequestId(): string {
  if (offset === POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = `req_${pool.toString('hex', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}

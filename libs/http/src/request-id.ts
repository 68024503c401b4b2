import { randomBytes } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-service-request-id';

/** `req_` and 16 random bytes in hex: unique enough to find one request in the logs. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

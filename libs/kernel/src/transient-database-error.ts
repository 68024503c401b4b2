/**
 * SQLSTATE classes and codes that mean "the database is unreachable or restarting", not "this write is
 * wrong": connection exceptions (but not 08P01, a protocol violation: the statement could not be read,
 * as one holding a NUL; see database-data-error.ts), insufficient resources (too many connections),
 * admin or crash shutdown, cannot connect now.
 */
const TRANSIENT_SQLSTATE = /^(08(?!P01)|53|57P0[1-3])/;
const TRANSIENT_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH']);
const TRANSIENT_MESSAGE =
  /Connection terminated|Client has encountered a connection error|Knex: Timeout acquiring a connection|connection is closed|server closed the connection|Transaction query already complete/i;

/**
 * True when a command failed because PostgreSQL was briefly away (crash, restart, a full pool):
 * the client may retry with the same command id, which the actor then answers once.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_NETWORK.has(code))) return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGE.test(message)) return true;
    e = cause;
  }
  return false;
}

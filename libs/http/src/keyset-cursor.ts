import { DomainError } from '@app/kernel';
import { stringProblem } from './storable-input';

/**
 * Keyset position `(createdAt, id)` as an opaque, URL-safe string. `createdAt` is the database's
 * microsecond text (`createdAtKey` in the queries), so rows created in the same millisecond are
 * neither skipped nor repeated.
 */
export interface Position {
  createdAt: string;
  id: string;
}

/** SQL for a timestamptz column as UTC ISO text with microseconds; it reads back with `::timestamptz`. */
export const microsKey = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/**
 * The instants a cursor can hold: what `microsKey` and `Date#toISOString` write, years 0001-9999, on a
 * day the month has. `Date.parse` also takes `+275760-09-13T00:00:00.000Z`, year 0 and February 30,
 * which PostgreSQL refuses.
 */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

const isCursorInstant = (text: string): boolean => {
  const ms = Date.parse(text);
  if (!CURSOR_INSTANT.test(text) || Number.isNaN(ms) || text.startsWith('0000')) return false;
  return new Date(ms).toISOString().slice(0, 10) === text.slice(0, 10);
};

export function decodeCursor(cursor: string): Position {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    // The id goes to the database too: a forged cursor must not carry what a parameter may not.
    if (
      typeof createdAt === 'string' &&
      typeof id === 'string' &&
      isCursorInstant(createdAt) &&
      !stringProblem(id, 'id')
    )
      return { createdAt, id };
  } catch {
    // fall through: not one of ours
  }
  throw new DomainError('bad_request', 'cursor is not valid: pass the nextCursor of a previous page', {
    field: 'cursor',
  });
}

/** The rows after a cursor in `order by created_at desc, id desc`: a predicate and its two parameters. */
export function afterCursor(cursor: string): { sql: string; params: [string, string] } {
  const position = decodeCursor(cursor);
  return { sql: '(created_at, id) < (?::timestamptz, ?)', params: [position.createdAt, position.id] };
}

/** One page of `limit` from `limit + 1` rows fetched newest first. */
export function page<T extends { id: string; createdAtKey: string }>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return {
    rows: kept,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAtKey, id: last.id }) : null,
  };
}

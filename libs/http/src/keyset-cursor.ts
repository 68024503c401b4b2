import { DomainError } from '@app/kernel';

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

export function decodeCursor(cursor: string): Position {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(createdAt)))
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

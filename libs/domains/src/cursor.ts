import { DomainError } from '@app/http';

/** Keyset position `(createdAt, id)` as an opaque, URL-safe string. */
export interface Position {
  createdAt: string;
  id: string;
}

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

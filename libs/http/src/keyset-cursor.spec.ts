import { DomainError } from '@app/kernel';
import { decodeCursor, encodeCursor, page } from './keyset-cursor';

describe('keyset cursors', () => {
  it('round-trips a microsecond position', () => {
    const position = { createdAt: '2026-11-21T10:00:00.123456Z', id: 'evt_1' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each(['', 'abc', encodeCursor({ createdAt: 'not a date', id: 'x' }), Buffer.from('[1,2]').toString('base64url')])(
    'refuses %j with 400 bad_request',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(DomainError);
    },
  );

  it('pages limit + 1 rows: a cursor only when there is more', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, createdAtKey: `2026-01-0${n}T00:00:00.000000Z` }));
    const first = page(rows, 2);
    expect(first.rows.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(decodeCursor(first.nextCursor as string)).toEqual({ createdAt: rows[1].createdAtKey, id: 'r2' });
    expect(page(rows.slice(0, 2), 2).nextCursor).toBeNull();
  });
});

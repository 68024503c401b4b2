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

  it.each([
    ['the last instant JavaScript has (year 275760)', '+275760-09-13T00:00:00.000Z'],
    ['year 0', '0000-01-01T00:00:00.000Z'],
    ['year 10000', '+010000-01-01T00:00:00.000Z'],
    ['February 30', '2026-02-30T00:00:00.000Z'],
    ['a date without a time', '2026-02-01'],
    ['a local time', '2026-02-01T00:00:00'],
  ])('refuses a cursor at %s, which PostgreSQL cannot represent', (_, createdAt) => {
    expect(() => decodeCursor(encodeCursor({ createdAt, id: 'dom_1' }))).toThrow(DomainError);
  });

  it('refuses a cursor whose id holds a NUL or a lone surrogate', () => {
    for (const id of ['dom_\u0000', 'dom_\ud800']) {
      expect(() => decodeCursor(encodeCursor({ createdAt: '2026-11-21T10:00:00.123Z', id }))).toThrow(DomainError);
    }
  });

  it('takes the first and last days PostgreSQL and JavaScript share, in both precisions', () => {
    for (const createdAt of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999999Z', '2024-02-29T12:00:00Z']) {
      expect(decodeCursor(encodeCursor({ createdAt, id: 'x' })).createdAt).toBe(createdAt);
    }
  });

  it('pages limit + 1 rows: a cursor only when there is more', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, createdAtKey: `2026-01-0${n}T00:00:00.000000Z` }));
    const first = page(rows, 2);
    expect(first.rows.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(decodeCursor(first.nextCursor as string)).toEqual({ createdAt: rows[1].createdAtKey, id: 'r2' });
    expect(page(rows.slice(0, 2), 2).nextCursor).toBeNull();
  });
});

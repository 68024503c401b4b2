import { toDate, withDates } from './row-dates';

describe('row dates', () => {
  it('reads PostgreSQL timestamptz text and leaves Dates and nulls alone', () => {
    expect(toDate('2026-11-21 23:14:45.813337+00').toISOString()).toBe('2026-11-21T23:14:45.813Z');
    const at = new Date(5);
    expect(toDate(at)).toBe(at);
    const row = withDates({ a: '2026-01-01 00:00:00+00', b: null as string | null, c: 'text' }, ['a', 'b']);
    expect(row).toEqual({ a: new Date('2026-01-01T00:00:00Z'), b: null, c: 'text' });
  });
});

import { extendedBy } from './renewal-quote';

describe('extendedBy', () => {
  it.each([
    ['2026-11-27T10:00:00.000Z', 1, '2027-11-27T10:00:00.000Z'],
    ['2026-11-27T10:00:00.000Z', 10, '2036-11-27T10:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', 1, '2029-02-28T00:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', 4, '2032-02-29T00:00:00.000Z'],
  ])('%s + %i years = %s', (from, years, to) => {
    expect(extendedBy(from, years)).toBe(to);
  });
});

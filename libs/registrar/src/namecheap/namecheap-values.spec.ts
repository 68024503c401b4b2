import { dollarsToCents, parseNamecheapDate } from './namecheap-values';

describe('Namecheap values', () => {
  it.each([
    ['10.98', 1098],
    ['10.2800', 1028],
    ['0.18', 18],
    ['200.8700', 20087],
    ['650', 65000],
    ['8.9', 890],
    ['13000.0000', 1300000],
    ['0.1801', 19],
    ['8.875', 888],
    ['12.', 1200],
  ])('%s dollars are %i cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it.each(['', 'abc', '-1.00', '1,00', '1.2.3'])('refuses %p', (value) => {
    expect(() => dollarsToCents(value)).toThrow(/Not a dollar amount/);
  });

  it('never loses a cent to floating point', () => {
    for (let cents = 0; cents < 100_000; cents += 7) {
      const dollars = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}00`;
      expect(dollarsToCents(dollars)).toBe(cents);
    }
  });

  it('reads both date shapes', () => {
    expect(parseNamecheapDate('09/05/2016')?.toISOString()).toBe('2016-09-05T00:00:00.000Z');
    expect(parseNamecheapDate('4/30/2021 11:31:13 AM')?.toISOString()).toBe('2021-04-30T11:31:13.000Z');
    expect(parseNamecheapDate('4/30/2021 12:05:00 AM')?.toISOString()).toBe('2021-04-30T00:05:00.000Z');
    expect(parseNamecheapDate('4/30/2021 1:31:13 PM')?.toISOString()).toBe('2021-04-30T13:31:13.000Z');
    expect(parseNamecheapDate('2021-04-30')).toBeUndefined();
  });
});

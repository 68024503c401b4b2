import { bearerToken, safeEqual } from './bearer';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer  abc ', 'abc'],
    ['Bearer', undefined],
    ['Basic abc', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it('compares secrets of any length safely', () => {
    expect(safeEqual('same-secret', 'same-secret')).toBe(true);
    expect(safeEqual('same-secret', 'same-secreT')).toBe(false);
    expect(safeEqual('short', 'a much longer secret')).toBe(false);
  });
});

import { canonicalHostname, wwwTwin } from './hostname';

describe('canonicalHostname', () => {
  it.each([
    ['shop.example.com', 'shop.example.com'],
    ['Shop.EXAMPLE.com', 'shop.example.com'],
    ['shop.example.com.', 'shop.example.com'],
    ['  shop.example.com.  ', 'shop.example.com'],
    ['ns1.Provider.NET.', 'ns1.provider.net'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['', ''],
    ['.', ''],
  ])('%j is %j', (input, expected) => {
    expect(canonicalHostname(input)).toBe(expected);
  });

  it('strips only one trailing dot, so a doubled dot stays visible to validation', () => {
    expect(canonicalHostname('example.com..')).toBe('example.com.');
  });
});

describe('wwwTwin', () => {
  it('pairs the apex and www', () => {
    expect(wwwTwin('example.com')).toBe('www.example.com');
    expect(wwwTwin('www.example.com')).toBe('example.com');
    expect(wwwTwin('shop.example.com')).toBe('www.shop.example.com');
    expect(wwwTwin('www.com')).toBeUndefined();
  });
});

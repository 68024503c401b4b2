import { parseHost } from './host';

describe('parseHost', () => {
  it.each([
    ['shop.example.com', 'shop.example.com'],
    ['Shop.Example.COM', 'shop.example.com'],
    ['shop.example.com:8443', 'shop.example.com'],
    ['shop.example.com:65535', 'shop.example.com'],
    ['shop.example.com.', 'shop.example.com'],
    ['  shop.example.com ', 'shop.example.com'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%j -> %j', (input, expected) => expect(parseHost(input)).toBe(expected));

  it.each([
    [undefined],
    [''],
    ['localhost'],
    ['[::1]:443'],
    ['::1'],
    ['shop.example.com:abc'],
    ['shop.example.com:99999'],
    ['shop.example.com:65536'],
    ['shop.example.com:0'],
    ['shop.example.com:'],
    ['shop..example.com'],
    ['-shop.example.com'],
    ['shop.example.com/evil'],
    ['shop example.com'],
    ['a'.repeat(64) + '.com'],
    [`${'a.'.repeat(127)}com`],
  ])('refuses %j', (input) => expect(parseHost(input)).toBeUndefined());
});

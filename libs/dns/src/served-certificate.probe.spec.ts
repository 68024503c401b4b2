import { certificateCovers } from './served-certificate.probe';

describe('certificateCovers', () => {
  it.each([
    ['DNS:shop.example.com', undefined, 'shop.example.com', true],
    ['DNS:a.example.com, DNS:shop.example.com', undefined, 'shop.example.com', true],
    ['DNS:*.example.com', undefined, 'shop.example.com', true],
    ['DNS:*.example.com', undefined, 'a.shop.example.com', false],
    ['DNS:*.example.com', undefined, 'example.com', false],
    ['DNS:other.example.com', undefined, 'shop.example.com', false],
    [undefined, 'shop.example.com', 'shop.example.com', true],
    ['IP Address:127.0.0.1', undefined, 'shop.example.com', false],
  ])('%s / CN %s covers %s: %s', (san, cn, hostname, expected) => {
    expect(certificateCovers(san, cn, hostname)).toBe(expected);
  });
});

import { httpsLocation, originPath, parseRequestTarget, redirectLocation, withoutDotSegments } from './request-target';

describe('parseRequestTarget', () => {
  it.each([
    ['/', { path: '/', query: '' }],
    ['/a/b?x=1&y=2', { path: '/a/b', query: 'x=1&y=2' }],
    ['/a?', { path: '/a', query: '' }],
    ['/a?x=1#frag', { path: '/a', query: 'x=1' }],
    ['//evil.example/x', { path: '//evil.example/x', query: '' }],
    ['/%2e%2e/a%20b', { path: '/a%20b', query: '' }],
    ['/a/%20b%2Fc', { path: '/a/%20b%2Fc', query: '' }],
  ])('%j', (url, expected) => expect(parseRequestTarget(url)).toEqual(expected));

  it.each([
    [undefined],
    [''],
    ['*'],
    ['http://other.example/x'],
    ['x/y'],
    ['/..%2f456/secret'],
    ['/a/..%2F..%2Fb'],
    ['/%2e%2e%5csecret'],
    ['/a/..\\b'],
    ['/x/.%2fy'],
  ])('refuses %j', (url) => expect(parseRequestTarget(url)).toBeUndefined());
});

describe('withoutDotSegments (RFC 3986 5.2.4)', () => {
  it.each([
    ['/', '/'],
    ['/a/b/c/./../../g', '/a/g'],
    ['/mid/content=5/../6', '/mid/6'],
    ['/../456/secret', '/456/secret'],
    ['/../../..', '/'],
    ['/%2E%2E/%2e/x', '/x'],
    ['/a/..', '/'],
    ['/a/b/..', '/a/'],
    ['/a/.', '/a/'],
    ['/a//b', '/a//b'],
    ['/a..b/...', '/a..b/...'],
  ])('%s -> %s', (path, expected) => expect(withoutDotSegments(path)).toBe(expected));
});

describe('originPath and redirectLocation', () => {
  const t = (url: string) => parseRequestTarget(url)!;
  it.each([
    ['https://o.example', '/', 'https://o.example/'],
    ['https://o.example/', '/a/b?x=1', 'https://o.example/a/b?x=1'],
    ['https://o.example/base', '/', 'https://o.example/base/'],
    ['https://o.example/base/', '/a?x=1', 'https://o.example/base/a?x=1'],
    ['https://o.example/base?ref=edge', '/a?x=1', 'https://o.example/base/a?ref=edge&x=1'],
    ['https://o.example/base?ref=edge#top', '/a', 'https://o.example/base/a?ref=edge'],
    ['http://o.example:8080/p', '//evil.example/x', 'http://o.example:8080/p//evil.example/x'],
    ['https://O.Example:443/', '/a', 'https://o.example/a'],
  ])('%s + %s -> %s', (origin, url, expected) => {
    expect(redirectLocation(new URL(origin), t(url))).toBe(expected);
    expect(originPath(new URL(origin), t(url))).toBe(expected.replace(/^https?:\/\/[^/]+/, ''));
  });

  it('builds the HTTPS location of the same host', () => {
    expect(httpsLocation('shop.example.com', t('/a/b?x=1'))).toBe('https://shop.example.com/a/b?x=1');
    expect(httpsLocation('shop.example.com', t('/'))).toBe('https://shop.example.com/');
  });
});

import { returnAfterPost, safeNext } from './safe-next';

describe('safeNext', () => {
  it.each([
    ['/console', '/console'],
    ['/console/domains', '/console/domains'],
    ['/console/domains?workspace=ws_1&q=shop', '/console/domains?workspace=ws_1&q=shop'],
    ['/console/domains/dom_1#records', '/console/domains/dom_1'],
    // Normalized: what is followed is what was checked.
    ['/console/a/../domains', '/console/domains'],
    ['/console/%2e%2e/console/x', '/console/x'],
    ['/console/dom ains', '/console/dom%20ains'],
  ])('keeps a console page: %s -> %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    'console',
    'https://evil.com/console',
    '//evil.com/console',
    '/console/../..//evil.com',
    '/console/..//evil.com',
    '/console/%2e%2e/%2e%2e//evil.com',
    '/console\\..\\..\\evil.com',
    '/\\evil.com',
    '/consolex',
    '/console.evil.com',
    '/console/../admin/workspaces',
    '/console/a//b',
    '/console\r\nSet-Cookie: a=b',
    '/console%0d%0aSet-Cookie:a=b',
    '/console/\nx',
    '/console/\u0000',
    `/console/${'a'.repeat(3000)}`,
    'javascript:alert(1)',
  ])('anything else is the console home: %j', (next) => {
    expect(safeNext(next)).toBe('/console');
  });

  it('never gives back a character a header cannot hold', () => {
    for (let code = 0; code < 0x10000; code += 1) {
      const out = safeNext(`/console/x${String.fromCharCode(code)}y`);
      expect(out).toMatch(/^[\x21-\x7e]+$/);
    }
  });
});

describe('returnAfterPost', () => {
  it.each([
    ['http://127.0.0.1:3000/console/w/ws_1/domains', '/console/w/ws_1/domains'],
    ['https://console.example.com/console/users?after=a%40b.com', '/console/users?after=a%40b.com'],
    ['https://evil.example/console/w/ws_1/keys', '/console/w/ws_1/keys'],
    ['https://evil.example/phish', '/console'],
    ['http://127.0.0.1:3000//evil.com/console', '/console'],
    ['not a url', '/console'],
    [undefined, '/console'],
  ])('%j returns to %j', (referer, expected) => {
    expect(returnAfterPost(referer)).toBe(expected);
  });
});

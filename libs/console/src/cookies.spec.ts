import { parseCookies, serializeCookie } from './cookies';

describe('console cookies', () => {
  it('parses a Cookie header, keeping the first of a repeated name and skipping junk', () => {
    expect(parseCookies('a=1; cd_console=x%20y; a=2; junk; bad=%E0%A4%A')).toEqual({ a: '1', cd_console: 'x y' });
    expect(parseCookies(undefined)).toEqual({});
  });

  it('writes HttpOnly, SameSite and Path always and Secure only behind TLS', () => {
    expect(serializeCookie('cd_console', 't', { secure: false, maxAge: 60 })).toBe(
      'cd_console=t; Path=/console; HttpOnly; SameSite=Lax; Max-Age=60',
    );
    expect(serializeCookie('cd_console', '', { secure: true, maxAge: 0 })).toContain('; Secure');
  });
});

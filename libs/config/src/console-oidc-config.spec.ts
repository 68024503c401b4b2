import { loadConfig } from './app-config';

const oidc = (env: Record<string, string>) => loadConfig(env, 'standalone').consoleOidc;

describe('console single sign-on settings (CONSOLE_OIDC_*)', () => {
  it('is off when no variable is set', () => {
    expect(oidc({})).toBeUndefined();
  });

  it('reads issuer, client, redirect URL, name and allowed domains', () => {
    expect(
      oidc({
        CONSOLE_OIDC_ISSUER: 'https://login.example.com/realms/acme/',
        CONSOLE_OIDC_CLIENT_ID: 'console',
        CONSOLE_OIDC_CLIENT_SECRET: 'shh',
        CONSOLE_OIDC_REDIRECT_URL: 'https://ops.example.com/console/sso/callback',
        CONSOLE_OIDC_NAME: 'Acme SSO',
        CONSOLE_OIDC_ALLOWED_DOMAINS: 'Example.com, ops.example.org',
      }),
    ).toEqual({
      issuer: 'https://login.example.com/realms/acme/',
      clientId: 'console',
      clientSecret: 'shh',
      redirectUrl: 'https://ops.example.com/console/sso/callback',
      name: 'Acme SSO',
      allowedDomains: ['example.com', 'ops.example.org'],
      allowHttp: false,
    });
  });

  it('defaults the name to the issuer host, and allows plain http on loopback only', () => {
    expect(oidc({ CONSOLE_OIDC_ISSUER: 'http://127.0.0.1:9000', CONSOLE_OIDC_CLIENT_ID: 'c' })).toMatchObject({
      name: '127.0.0.1:9000',
      clientSecret: undefined,
      allowHttp: true,
      allowedDomains: [],
    });
  });

  it.each([
    [{ CONSOLE_OIDC_CLIENT_ID: 'c' }, 'CONSOLE_OIDC_CLIENT_ID is set but CONSOLE_OIDC_ISSUER is not'],
    [{ CONSOLE_OIDC_ISSUER: 'https://login.example.com' }, 'CONSOLE_OIDC_CLIENT_ID is required'],
    [{ CONSOLE_OIDC_ISSUER: 'http://login.example.com', CONSOLE_OIDC_CLIENT_ID: 'c' }, 'must use https:'],
    [{ CONSOLE_OIDC_ISSUER: 'ftp://login.example.com', CONSOLE_OIDC_CLIENT_ID: 'c' }, 'must use https: or http:'],
    [{ CONSOLE_OIDC_ISSUER: 'not a url', CONSOLE_OIDC_CLIENT_ID: 'c' }, 'must be a URL'],
    [
      {
        CONSOLE_OIDC_ISSUER: 'https://a.example.com',
        CONSOLE_OIDC_CLIENT_ID: 'c',
        CONSOLE_OIDC_REDIRECT_URL: 'https://x.example.com/cb',
      },
      'CONSOLE_OIDC_REDIRECT_URL must end in /console/sso/callback',
    ],
    [
      {
        CONSOLE_OIDC_ISSUER: 'https://a.example.com',
        CONSOLE_OIDC_CLIENT_ID: 'c',
        CONSOLE_OIDC_ALLOWED_DOMAINS: 'not_a_domain',
      },
      'CONSOLE_OIDC_ALLOWED_DOMAINS must be a fully qualified hostname',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => oidc(env)).toThrow(message);
  });
});

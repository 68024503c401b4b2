import { ConfigError, Env, hostname, raw, url } from './env-parsers';

/** Console single sign-on: OpenID Connect, authorization code + PKCE, against any standard issuer. */
export interface ConsoleOidcConfig {
  /** The issuer identifier; its `/.well-known/openid-configuration` is read on first use. */
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE alone; the token endpoint is called without a secret). */
  clientSecret?: string;
  /** Where the issuer sends the browser back; unset: `<the request's origin>/console/sso/callback`. */
  redirectUrl?: string;
  /** "Sign in with <name>" on the sign-in page. */
  name: string;
  /** Email domains whose verified users are created as members without workspaces on first SSO sign-in. */
  allowedDomains: string[];
  /** Plain http to the issuer: only for a loopback issuer (development, tests). */
  allowHttp: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const CALLBACK_PATH = '/console/sso/callback';

/** CONSOLE_OIDC_*: all unset turns single sign-on off; a partial or wrong setting stops the process. */
export function consoleOidcConfig(env: Env): ConsoleOidcConfig | undefined {
  // Kept as given: discovery compares it with the issuer's own identifier, trailing slash included.
  const issuer = url(env, 'CONSOLE_OIDC_ISSUER', ['https:', 'http:']);
  const clientId = raw(env, 'CONSOLE_OIDC_CLIENT_ID');
  if (!issuer) {
    for (const name of ['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_CLIENT_SECRET', 'CONSOLE_OIDC_ALLOWED_DOMAINS']) {
      if (raw(env, name)) throw new ConfigError(name, 'is set but CONSOLE_OIDC_ISSUER is not');
    }
    return undefined;
  }
  const issuerUrl = new URL(issuer);
  const allowHttp = issuerUrl.protocol === 'http:';
  if (allowHttp && !LOOPBACK.has(issuerUrl.hostname)) {
    throw new ConfigError('CONSOLE_OIDC_ISSUER', `must use https: (plain http only on loopback, got ${issuer})`);
  }
  if (issuerUrl.search || issuerUrl.hash) {
    throw new ConfigError('CONSOLE_OIDC_ISSUER', 'must have no query or fragment');
  }
  if (!clientId) throw new ConfigError('CONSOLE_OIDC_CLIENT_ID', 'is required when CONSOLE_OIDC_ISSUER is set');
  const redirectUrl = url(env, 'CONSOLE_OIDC_REDIRECT_URL', ['https:', 'http:']);
  if (redirectUrl && new URL(redirectUrl).pathname !== CALLBACK_PATH) {
    throw new ConfigError('CONSOLE_OIDC_REDIRECT_URL', `must end in ${CALLBACK_PATH} (got ${redirectUrl})`);
  }
  const name = raw(env, 'CONSOLE_OIDC_NAME') ?? issuerUrl.host;
  if (name.length > 60) throw new ConfigError('CONSOLE_OIDC_NAME', 'must be at most 60 characters');
  const allowedDomains = (raw(env, 'CONSOLE_OIDC_ALLOWED_DOMAINS') ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => hostname({ CONSOLE_OIDC_ALLOWED_DOMAINS: d }, 'CONSOLE_OIDC_ALLOWED_DOMAINS', ''));
  return {
    issuer,
    clientId,
    clientSecret: raw(env, 'CONSOLE_OIDC_CLIENT_SECRET'),
    redirectUrl,
    name,
    allowedDomains,
    allowHttp,
  };
}

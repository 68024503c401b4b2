import { APP_CONFIG, AppConfig, ConsoleOidcConfig } from '@app/config';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type * as OpenIdClient from 'openid-client';
import { SsoIdentity } from './sso-decision';

/** What the browser's flow cookie keeps between the redirect to the issuer and the way back. */
export interface PendingSso {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  next: string;
}

/** A sign-in that did not complete, with the sentence the person reads and the page's status. */
export class SsoFailure extends Error {
  /** Who was refused (their email, else their subject), for the audit log; unset before the issuer answered. */
  who?: string;
  identity?: { issuer: string; subject: string; email: string | null };

  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

type Lib = typeof OpenIdClient;
const SCOPE = 'openid email profile';
const TIMEOUT_SECONDS = 10;

/**
 * The OpenID Connect relying party of the console (openid-client): discovery on first use (and
 * again after a failure, so an issuer that was down is retried), then the authorization code flow
 * with PKCE (S256), state and nonce. openid-client checks the ID token (signature against the
 * issuer's JWKS, iss, aud, exp, nonce); a missing email claim is read from UserInfo.
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger(OidcClient.name);
  private readonly settings?: ConsoleOidcConfig;
  private discovered?: Promise<{ oidc: Lib; config: OpenIdClient.Configuration }>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.settings = config.consoleOidc;
  }

  /** "Sign in with <name>", or undefined when single sign-on is off. */
  get name(): string | undefined {
    return this.settings?.name;
  }

  get allowedDomains(): readonly string[] {
    return this.settings?.allowedDomains ?? [];
  }

  /** The configured callback, else the callback at the origin the browser used. */
  redirectUri(origin: string): string {
    return this.settings?.redirectUrl ?? `${origin}/console/sso/callback`;
  }

  async start(redirectUri: string, next: string): Promise<{ url: string; pending: PendingSso }> {
    const { oidc, config } = await this.configuration();
    const verifier = oidc.randomPKCECodeVerifier();
    const pending: PendingSso = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, redirectUri, next };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** Redeems the code of the callback (`search`: its query string) and returns who signed in. */
  async finish(search: string, pending: PendingSso): Promise<SsoIdentity> {
    const { oidc, config } = await this.configuration();
    const currentUrl = new URL(pending.redirectUri);
    currentUrl.search = search;
    let tokens: Awaited<ReturnType<Lib['authorizationCodeGrant']>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw this.failure(error, 'exchange');
    }
    const claims = tokens.claims();
    if (!claims) throw new SsoFailure(502, 'Sign-in failed', 'The sign-in service sent no ID token.', 'no_id_token');
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified === true;
    let name = typeof claims.name === 'string' ? claims.name : undefined;
    if (email === undefined) {
      try {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : undefined;
        verified = info.email_verified === true;
        name ??= typeof info.name === 'string' ? info.name : undefined;
      } catch (error) {
        throw this.failure(error, 'userinfo');
      }
    }
    return { issuer: claims.iss, subject: claims.sub, email, emailVerified: verified, name };
  }

  /**
   * openid-client is ESM-only: loaded (Node's require(esm)) on the first sign-in, so a process
   * without single sign-on never loads it.
   */
  private configuration(): Promise<{ oidc: Lib; config: OpenIdClient.Configuration }> {
    const s = this.settings;
    if (!s) {
      return Promise.reject(
        new SsoFailure(404, 'Single sign-on is off', 'Single sign-on is not configured.', 'not_configured'),
      );
    }
    this.discovered ??= import('openid-client')
      .then(async (oidc) => {
        const config = await oidc.discovery(
          new URL(s.issuer),
          s.clientId,
          s.clientSecret,
          s.clientSecret ? oidc.ClientSecretBasic(s.clientSecret) : oidc.None(),
          { timeout: TIMEOUT_SECONDS, execute: s.allowHttp ? [oidc.allowInsecureRequests] : [] },
        );
        return { oidc, config };
      })
      .catch((error: unknown) => {
        this.discovered = undefined;
        throw this.failure(error, 'discovery');
      });
    return this.discovered;
  }

  /** Maps the library's errors to what a person can act on; the details go to the log. */
  private failure(error: unknown, step: 'discovery' | 'exchange' | 'userinfo'): SsoFailure {
    if (error instanceof SsoFailure) return error;
    if (isAuthorizationResponseError(error)) {
      return error.error === 'access_denied'
        ? new SsoFailure(
            401,
            'Sign-in cancelled',
            'The sign-in service did not let you in (access denied or cancelled). Try again, or sign in with your password.',
            'access_denied',
          )
        : new SsoFailure(
            401,
            'Sign-in failed',
            `The sign-in service answered with an error: ${error.error_description ?? error.error}.`,
            error.error,
          );
    }
    const issuer = this.settings?.issuer ?? 'the sign-in service';
    const cause = (error as Error)?.message ?? String(error);
    this.logger.warn({ err: error, step, issuer }, 'Single sign-on failed');
    const network = error instanceof TypeError || (error as { name?: string })?.name === 'TimeoutError';
    if (network || step === 'discovery') {
      return new SsoFailure(
        503,
        'The sign-in service is not answering',
        `${issuer} could not be reached (${cause}). Try again in a moment, or sign in with your password.`,
        'issuer_unavailable',
      );
    }
    return new SsoFailure(
      401,
      'Sign-in failed',
      `The answer of the sign-in service was refused (${cause}). Start the sign-in again.`,
      'invalid_response',
    );
  }
}

/** An error answer of the issuer on the callback (openid-client's AuthorizationResponseError). */
function isAuthorizationResponseError(error: unknown): error is { error: string; error_description?: string } {
  return (
    error instanceof Error &&
    error.name === 'AuthorizationResponseError' &&
    typeof (error as { error?: unknown }).error === 'string'
  );
}

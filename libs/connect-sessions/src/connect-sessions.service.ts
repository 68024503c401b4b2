import { CredentialResolver, CredentialResolvers, Principal } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CLOCK, Clock, dateTime, Infer, obj, str } from '@app/kernel';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import {
  CONNECT_SESSION_PREFIX,
  ConnectSessionClaims,
  connectSessionKey,
  newSessionJti,
  signConnectSession,
  verifyConnectSession,
} from './connect-session.token';

export const connectSessionSchema = obj({
  token: str('Browser-safe, scoped to one domain; signed, not stored'),
  expiresAt: dateTime(),
  domainId: str(),
  hostname: str(),
});
export type ConnectSession = Infer<typeof connectSessionSchema>;

/**
 * Mints connect-session tokens and, as a credential resolver, turns them back into principals.
 * No `cached()`: the domain read's fast path (which skips interceptors) never answers a session, so
 * every session answer passes ConnectSessionViewInterceptor.
 */
@Injectable()
export class ConnectSessions implements CredentialResolver, OnModuleInit {
  private readonly key: Buffer;

  constructor(
    private readonly resolvers: CredentialResolvers,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    if (!config.signingSecret) throw new Error('SIGNING_SECRET is required to sign connect-session tokens');
    this.key = connectSessionKey(config.signingSecret);
  }

  onModuleInit(): void {
    this.resolvers.register(this);
  }

  mint(workspaceId: string, domain: { id: string; hostname: string }, ttlSeconds: number): ConnectSession {
    const now = this.clock.now();
    const expiresAt = Math.floor(now / 1000) + ttlSeconds;
    const token = signConnectSession(
      this.key,
      { workspaceId, domainId: domain.id, jti: newSessionJti(), expiresAt },
      now,
    );
    return {
      token,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
      domainId: domain.id,
      hostname: domain.hostname,
    };
  }

  /** The claims of a valid, unexpired token; undefined for anything else. */
  claims(token: string): ConnectSessionClaims | undefined {
    return verifyConnectSession(this.key, token, this.clock.now());
  }

  recognizes(token: string): boolean {
    return token.startsWith(CONNECT_SESSION_PREFIX);
  }

  authenticate(token: string): Promise<Principal | undefined> {
    const claims = verifyConnectSession(this.key, token, this.clock.now());
    if (!claims) return Promise.resolve(undefined);
    return Promise.resolve({
      kind: 'connect_session',
      workspaceId: claims.workspaceId,
      domainId: claims.domainId,
      credentialId: claims.jti,
    });
  }
}

import { CredentialResolver, CredentialResolvers, Principal, safeEqual } from '@app/auth';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { BoundedCache, CLOCK, Clock, DomainError } from '@app/kernel';
import { newId } from '@app/persistence';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { OAuthClientRecord, OAuthClientRepository } from './oauth-client.repository';
import { generateAccessToken, hashSecret, looksLikeAccessToken, looksLikeClientId } from './oauth-credentials';
import { ClientCredentials, grantedScopes } from './oauth-request';
import { OAuthTokenRecord, OAuthTokenRepository } from './oauth-token.repository';

/** How long a successful lookup is trusted; revocations also evict at once, on every replica, through the bus. */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const PURGE_EVERY_MS = 3_600_000;
/** Expired tokens are kept a day (introspection answers them inactive either way), then deleted. */
const KEEP_EXPIRED_MS = 86_400_000;
const OAUTH_REVOKED_SUBJECT = 'control.auth.oauth_revoked';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export type Introspection =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      token_type: 'Bearer';
      exp: number;
      iat: number;
      sub: string;
      workspace: string;
    };

/**
 * The client-credentials grant, revocation and introspection, and the resolver that turns an
 * `oat_` bearer token into a scoped principal. Rate limits count per client (the principal's
 * credentialId), so minting more tokens does not buy more requests.
 */
@Injectable()
export class OAuthTokens implements CredentialResolver, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OAuthTokens.name);
  /** Principals of tokens seen lately, by token hash; trusted for at most CACHE_TTL_MS. */
  private readonly cache: BoundedCache<Principal>;
  private unsubscribe?: () => void;
  private lastPurge = 0;

  constructor(
    private readonly clients: OAuthClientRepository,
    private readonly tokens: OAuthTokenRepository,
    private readonly bus: Bus,
    private readonly credentials: CredentialResolvers,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.cache = new BoundedCache({ maxEntries: CACHE_MAX_ENTRIES, clock });
  }

  onModuleInit(): void {
    this.credentials.register(this);
    this.unsubscribe = this.bus.subscribe(OAUTH_REVOKED_SUBJECT, (payload) => this.evict(payload));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** The client behind the credentials, or 401 invalid_client (unknown, wrong secret or revoked alike). */
  async authenticateClient(credentials: ClientCredentials): Promise<OAuthClientRecord> {
    const client = looksLikeClientId(credentials.clientId) ? await this.clients.find(credentials.clientId) : undefined;
    const secretOk = safeEqual(hashSecret(credentials.clientSecret), client?.secretHash ?? '');
    if (!client || !secretOk || client.revokedAt) {
      throw new DomainError('invalid_client', 'Client authentication failed: unknown client, wrong secret or revoked');
    }
    return client;
  }

  async issue(client: OAuthClientRecord, requestedScope: string | undefined): Promise<TokenResponse> {
    const scopes = grantedScopes(requestedScope, client.scopes);
    const token = generateAccessToken();
    const now = this.clock.now();
    const ttl = this.config.oauthTokenTtlSeconds;
    await this.tokens.insert({
      id: newId('otk'),
      tokenHash: hashSecret(token),
      clientId: client.id,
      workspaceId: client.workspaceId,
      scopes,
      issuedAtMs: now,
      expiresAtMs: now + ttl * 1000,
    });
    this.purgeNow(now);
    return { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') };
  }

  /** RFC 7009: revokes the token if this client holds it; anything else is silently fine. */
  async revoke(client: OAuthClientRecord, token: string): Promise<void> {
    const record = await this.find(token);
    if (!record || record.clientId !== client.id) return;
    await this.tokens.revoke(record.id);
    this.announce({ tokenHash: hashSecret(token) });
  }

  /** RFC 7662: active only for a live token of the caller's workspace; nothing else is revealed. */
  async introspect(client: OAuthClientRecord, token: string): Promise<Introspection> {
    const record = await this.find(token);
    if (!record || !this.live(record) || record.workspaceId !== client.workspaceId) return { active: false };
    return {
      active: true,
      scope: record.scopes.join(' '),
      client_id: record.clientId,
      token_type: 'Bearer',
      exp: Math.floor(record.expiresAtMs / 1000),
      iat: Math.floor(record.issuedAtMs / 1000),
      sub: record.clientId,
      workspace: record.workspaceId,
    };
  }

  /** After a client is revoked: its tokens stop working on every replica at once. */
  clientRevoked(clientId: string): void {
    this.announce({ clientId });
  }

  recognizes(token: string): boolean {
    return looksLikeAccessToken(token);
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    if (!looksLikeAccessToken(token)) return undefined;
    const now = this.clock.now();
    const tokenHash = hashSecret(token);
    const cached = this.cache.get(tokenHash);
    if (cached) return cached;
    const record = await this.tokens.findByHash(tokenHash);
    if (!record || !this.live(record)) {
      this.cache.delete(tokenHash);
      return undefined;
    }
    const principal: Principal = {
      workspaceId: record.workspaceId,
      credentialId: record.clientId,
      kind: 'oauth_token',
      scopes: record.scopes,
    };
    this.cache.set(tokenHash, principal, Math.min(CACHE_TTL_MS, record.expiresAtMs - now));
    return principal;
  }

  private live(record: OAuthTokenRecord): boolean {
    return !record.revoked && record.expiresAtMs > this.clock.now();
  }

  private async find(token: string): Promise<OAuthTokenRecord | undefined> {
    return looksLikeAccessToken(token) ? this.tokens.findByHash(hashSecret(token)) : undefined;
  }

  private announce(payload: { tokenHash?: string; clientId?: string }): void {
    this.evict(payload);
    this.bus.publish(OAUTH_REVOKED_SUBJECT, payload);
  }

  private evict(payload: unknown): void {
    const { tokenHash, clientId } = (payload ?? {}) as { tokenHash?: string; clientId?: string };
    if (tokenHash) this.cache.delete(tokenHash);
    if (clientId) {
      this.cache.deleteWhere((principal) => principal.credentialId === clientId);
    }
  }

  private purgeNow(now: number): void {
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    this.tokens.purgeExpired(now - KEEP_EXPIRED_MS).catch((err: unknown) => {
      this.logger.warn({ err }, 'Purging expired OAuth tokens failed');
    });
  }
}

import { EntityManager } from '@mikro-orm/postgresql';
import { Bus } from '@app/bus';
import { notFound } from '@app/http';
import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ApiKey } from './api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';
import { CredentialResolver, CredentialResolvers } from './credential-resolvers';
import { Principal } from './principal';

/** How long a successful lookup is trusted; revocations also evict at once through the bus. */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
export const API_KEY_REVOKED_SUBJECT = 'control.auth.api_key_revoked';

interface CachedKey {
  principal: Principal;
  expiresAt: number;
}

@Injectable()
export class ApiKeyService implements CredentialResolver, OnModuleInit, OnModuleDestroy {
  private readonly cache = new Map<string, CachedKey>();
  private unsubscribe?: () => void;

  constructor(
    private readonly em: EntityManager,
    private readonly bus: Bus,
    private readonly credentials: CredentialResolvers,
  ) {}

  onModuleInit(): void {
    this.credentials.register(this);
    this.unsubscribe = this.bus.subscribe(API_KEY_REVOKED_SUBJECT, (payload) => {
      const { keyHash } = payload as { keyHash?: string };
      if (keyHash) this.cache.delete(keyHash);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Creates a key for the workspace; the returned `key` is never retrievable again. */
  async issue(workspaceId: string): Promise<{ apiKey: ApiKey; key: string }> {
    const key = generateApiKey();
    const apiKey = new ApiKey(workspaceId, hashApiKey(key), apiKeyHint(key));
    await this.em.persistAndFlush(apiKey);
    return { apiKey, key };
  }

  async revoke(keyId: string): Promise<ApiKey> {
    const apiKey = await this.em.findOne(ApiKey, { id: keyId });
    if (!apiKey) throw notFound('API key');
    if (!apiKey.revokedAt) {
      apiKey.revokedAt = new Date();
      await this.em.flush();
    }
    this.cache.delete(apiKey.keyHash);
    this.bus.publish(API_KEY_REVOKED_SUBJECT, { keyHash: apiKey.keyHash });
    return apiKey;
  }

  recognizes(token: string): boolean {
    return looksLikeApiKey(token);
  }

  /** The principal of a live key, or undefined for an unknown, malformed or revoked one. */
  async authenticate(token: string, now = Date.now()): Promise<Principal | undefined> {
    if (!looksLikeApiKey(token)) return undefined;
    const keyHash = hashApiKey(token);
    const cached = this.cache.get(keyHash);
    if (cached && cached.expiresAt > now) return cached.principal;
    const apiKey = await this.em.fork().findOne(ApiKey, { keyHash, revokedAt: null });
    if (!apiKey) {
      this.cache.delete(keyHash);
      return undefined;
    }
    const principal: Principal = { workspaceId: apiKey.workspaceId, credentialId: apiKey.id, kind: 'api_key' };
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(keyHash, { principal, expiresAt: now + CACHE_TTL_MS });
    return principal;
  }
}

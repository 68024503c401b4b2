import { EntityManager } from '@mikro-orm/postgresql';
import { CredentialResolver, CredentialResolvers, Principal } from '@app/auth';
import { BackgroundLoop } from '@app/background';
import { Bus } from '@app/bus';
import { notFound } from '@app/kernel';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyHotReads } from './api-key-hot.reads';
import { ApiKey } from './api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';

/** How long a confirmed key is trusted; revocations also evict at once through the bus. */
const CACHE_TRUST_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
/** Keys used within this long are re-confirmed in the background before their trust runs out. */
const KEEP_WARM_MS = 60_000;
const RECHECK_EVERY_MS = 2_000;
/** Hashes per recheck statement. */
const RECHECK_BATCH = 1_000;
const API_KEY_REVOKED_SUBJECT = 'control.auth.api_key_revoked';

@Injectable()
export class ApiKeyService implements CredentialResolver, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyService.name);
  private readonly cache = new ApiKeyCache(CACHE_MAX_ENTRIES, CACHE_TRUST_MS);
  /** One database read per key at a time, however many requests wait on it. */
  private readonly loading = new Map<string, Promise<Principal | undefined>>();
  private unsubscribe?: () => void;
  private readonly rechecks = new BackgroundLoop({
    everyMs: RECHECK_EVERY_MS,
    run: () => this.recheck(),
    logger: this.logger,
    // The entries simply run out of trust and are read again on their next use.
    failure: 'Could not re-confirm the cached API keys',
  });

  constructor(
    private readonly em: EntityManager,
    private readonly keys: ApiKeyHotReads,
    private readonly bus: Bus,
    private readonly credentials: CredentialResolvers,
  ) {}

  onModuleInit(): void {
    this.credentials.register(this);
    this.unsubscribe = this.bus.subscribe(API_KEY_REVOKED_SUBJECT, (payload) => {
      const { keyHash } = payload as { keyHash?: string };
      if (keyHash) this.cache.delete(keyHash);
    });
    this.rechecks.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    await this.rechecks.stop();
  }

  /** Creates a key for the workspace; the returned `key` is never retrievable again. */
  async issue(workspaceId: string, name?: string): Promise<{ apiKey: ApiKey; key: string }> {
    const key = generateApiKey();
    const apiKey = new ApiKey(workspaceId, hashApiKey(key), apiKeyHint(key), name?.trim() || null);
    await this.em.persistAndFlush(apiKey);
    return { apiKey, key };
  }

  /** Oldest first, revoked ones included (the operator's view). */
  listFor(workspaceId: string): Promise<ApiKey[]> {
    return this.em.find(ApiKey, { workspaceId }, { orderBy: { createdAt: 'asc' } });
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

  /** The principal of a key confirmed live within the trust window, without I/O. */
  cached(token: string, now = Date.now()): Principal | undefined {
    return looksLikeApiKey(token) ? this.cache.get(hashApiKey(token), now) : undefined;
  }

  /** The principal of a live key, or undefined for an unknown, malformed or revoked one. */
  async authenticate(token: string, now = Date.now()): Promise<Principal | undefined> {
    if (!looksLikeApiKey(token)) return undefined;
    const keyHash = hashApiKey(token);
    const cached = this.cache.get(keyHash, now);
    if (cached) return cached;
    let loading = this.loading.get(keyHash);
    if (!loading) {
      loading = this.load(keyHash, now).finally(() => this.loading.delete(keyHash));
      this.loading.set(keyHash, loading);
    }
    return loading;
  }

  private async load(keyHash: string, now: number): Promise<Principal | undefined> {
    const row = await this.keys.live(keyHash);
    if (!row) {
      this.cache.delete(keyHash);
      return undefined;
    }
    const principal: Principal = { workspaceId: row.workspace_id, credentialId: row.id, kind: 'api_key' };
    // The audit log names the key on every change it makes: read with the key, not once per change.
    if (row.name) principal.credentialName = row.name;
    this.cache.set(keyHash, principal, now);
    return principal;
  }

  /**
   * Re-confirms the keys used lately, in a few statements, before their trust runs out; the same
   * statements record when each was last used (to the minute).
   */
  private async recheck(now = Date.now()): Promise<void> {
    const due = this.cache.dueForRecheck(now - KEEP_WARM_MS, now - CACHE_TRUST_MS / 2);
    for (let i = 0; i < due.length; i += RECHECK_BATCH) {
      const asked = due.slice(i, i + RECHECK_BATCH);
      const usedAt = asked.map((hash) => new Date(this.cache.usedAt(hash) ?? now));
      this.cache.confirm(asked, await this.keys.stillLive(asked, usedAt), now);
    }
  }
}

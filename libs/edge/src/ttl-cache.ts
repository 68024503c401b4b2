interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A per-key cache with a time to live per value, at most `maxEntries` (the oldest go first), and
 * one load in flight per key: a thousand handshakes for a cold hostname cost one database read.
 * Within `staleMs` after expiry a value is still answered while one background load refreshes it,
 * so hot keys never wait on the database; later than that, callers wait for the load.
 * `delete` also forgets a load in flight, so an answer read before an invalidation is not kept.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly maxEntries: number,
    private readonly staleMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or `load()`'s, kept for `ttlMs(value)` (0: not kept). */
  get(key: string, load: () => Promise<V>, ttlMs: (value: V) => number): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      const now = this.now();
      if (hit.expiresAt > now) return Promise.resolve(hit.value);
      if (hit.expiresAt + this.staleMs > now) {
        this.load(key, load, ttlMs).catch(() => undefined);
        return Promise.resolve(hit.value);
      }
      this.entries.delete(key);
    }
    return this.load(key, load, ttlMs);
  }

  private load(key: string, load: () => Promise<V>, ttlMs: (value: V) => number): Promise<V> {
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) {
          this.loading.delete(key);
          this.set(key, value, ttlMs(value));
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  /** The value if cached and unexpired, without loading anything. */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > this.now() ? hit.value : undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.loading.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }

  private set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}

import { Clock, systemClock } from './clock';

export interface BoundedCacheOptions<V> {
  /** At most this many entries; beyond it the least recently used goes first. */
  maxEntries: number;
  /** How long an entry is kept unless `set` or the loader says otherwise; default: until evicted. */
  ttlMs?: number;
  /**
   * Within this long after expiry `getOrLoad` still answers the old value while one background
   * load refreshes it, so hot keys never wait on their source; later than that, callers wait.
   */
  staleMs?: number;
  clock?: Clock;
  /** Told when an entry leaves on its own (evicted by the bound, or found expired), not when deleted. */
  onEvict?: (key: string, value: V) => void;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * The one in-memory cache of the service: bounded (LRU eviction), a time to live per entry, one
 * load in flight per key (a thousand misses of one cold key cost one read), optional
 * stale-while-revalidate. `delete` also forgets a load in flight, so an answer read before an
 * invalidation is not kept. Failed loads are never kept.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly clock: Clock;
  private readonly onEvict?: (key: string, value: V) => void;

  constructor(options: BoundedCacheOptions<V>) {
    this.maxEntries = options.maxEntries;
    this.ttlMs = options.ttlMs ?? Infinity;
    this.staleMs = options.staleMs ?? 0;
    this.clock = options.clock ?? systemClock;
    this.onEvict = options.onEvict;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value if cached and unexpired (now the most recently used); no loading. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.clock.now();
    if (entry.expiresAt > now) {
      this.touch(key, entry);
      return entry.value;
    }
    if (entry.expiresAt + this.staleMs <= now) this.evict(key, entry);
    return undefined;
  }

  /** The value if cached and unexpired, without counting as a use. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > this.clock.now() ? entry.value : undefined;
  }

  /** Keeps `value` for `ttlMs` (default: the cache's); a time to live of 0 or less keeps nothing. */
  set(key: string, value: V, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.clock.now() + ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.entries().next();
      if (oldest.done) break;
      this.evict(...oldest.value);
    }
  }

  /** The cached value, or `load()`'s, kept for `ttlFor(value)` (default: the cache's time to live). */
  getOrLoad(key: string, load: () => Promise<V>, ttlFor?: (value: V) => number): Promise<V> {
    const entry = this.entries.get(key);
    if (entry) {
      const now = this.clock.now();
      if (entry.expiresAt > now) {
        this.touch(key, entry);
        return Promise.resolve(entry.value);
      }
      if (entry.expiresAt + this.staleMs > now) {
        this.load(key, load, ttlFor).catch(() => undefined);
        return Promise.resolve(entry.value);
      }
      this.evict(key, entry);
    }
    return this.load(key, load, ttlFor);
  }

  /** Forgets the key and any load of it in flight; answers the value it held, expired or not. */
  delete(key: string): V | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    this.loading.delete(key);
    return entry?.value;
  }

  /** Drops every entry whose value matches (e.g. every token of a revoked client). */
  deleteWhere(matches: (value: V, key: string) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value, key)) this.delete(key);
  }

  /** The unexpired entries, least recently used first, without counting as uses. */
  *entriesNow(): IterableIterator<[string, V]> {
    const now = this.clock.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt > now) yield [key, entry.value];
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }

  private evict(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.onEvict?.(key, entry.value);
  }

  private touch(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private load(key: string, load: () => Promise<V>, ttlFor?: (value: V) => number): Promise<V> {
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) {
          this.loading.delete(key);
          this.set(key, value, ttlFor ? ttlFor(value) : this.ttlMs);
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
}

/** A small in-memory cache with a fixed time to live and a size bound (oldest entries go first). */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs?: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + (ttlMs ?? this.ttlMs) });
  }

  /** The cached value, or the loader's, cached; concurrent misses of one key share one load. */
  async getOrLoad(key: string, load: () => Promise<T>, ttlFor?: (value: T) => number | undefined): Promise<T> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = load()
        .then((value) => {
          this.set(key, value, ttlFor?.(value));
          return value;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private readonly inflight = new Map<string, Promise<T>>();
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per source address: `perSecond` queries a second, bursts up to twice that. At most
 * `maxSources` buckets are kept; beyond it the least recently seen address is forgotten (it then
 * starts again with a full bucket), so a flood from spoofed addresses cannot grow memory.
 */
export class SourceRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly perSecond: number,
    private readonly maxSources = 100_000,
  ) {
    this.burst = perSecond * 2;
  }

  /** True when `source` may be answered now (`now` in ms); takes one token. */
  allow(source: string, now: number): boolean {
    const previous = this.buckets.get(source);
    const refilled = previous
      ? Math.min(this.burst, previous.tokens + ((now - previous.at) * this.perSecond) / 1_000)
      : this.burst;
    // Re-inserting moves the address to the end: Map order is then least recently seen first.
    this.buckets.delete(source);
    const allowed = refilled >= 1;
    this.buckets.set(source, { tokens: allowed ? refilled - 1 : refilled, at: now });
    if (this.buckets.size > this.maxSources) this.buckets.delete(this.buckets.keys().next().value!);
    return allowed;
  }

  get size(): number {
    return this.buckets.size;
  }
}

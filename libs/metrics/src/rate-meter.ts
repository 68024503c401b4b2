const WINDOW_SECONDS = 60;

/**
 * Events per second over the last minute, in one-second buckets: marking costs an array write, and
 * reading it needs no second sample. For figures a node reports about itself (the console's cluster
 * page), beside the Prometheus counters that outside scrapers turn into rates.
 */
export class RateMeter {
  private readonly buckets = new Array<number>(WINDOW_SECONDS).fill(0);
  private second = 0;

  constructor(private readonly now: () => number = Date.now) {}

  mark(count = 1): void {
    this.advance();
    this.buckets[this.second % WINDOW_SECONDS] += count;
  }

  /** The mean per second over the last 60 seconds (the current, partial second included). */
  perSecond(): number {
    this.advance();
    return this.buckets.reduce((sum, n) => sum + n, 0) / WINDOW_SECONDS;
  }

  /** Moves to the current second, emptying the buckets of the seconds that passed without a mark. */
  private advance(): void {
    const second = Math.floor(this.now() / 1000);
    if (second <= this.second) return;
    const passed = Math.min(second - this.second, WINDOW_SECONDS);
    for (let i = 1; i <= passed; i++) this.buckets[(this.second + i) % WINDOW_SECONDS] = 0;
    this.second = second;
  }
}

const meters = new Map<string, RateMeter>();

/** The process-wide meter of this name (created on first use). */
export function rateMeter(name: string): RateMeter {
  let meter = meters.get(name);
  if (!meter) meters.set(name, (meter = new RateMeter()));
  return meter;
}

/** Every meter of this process: name → events per second over the last minute. */
export function currentRates(): Record<string, number> {
  return Object.fromEntries([...meters].map(([name, meter]) => [name, Math.round(meter.perSecond() * 100) / 100]));
}

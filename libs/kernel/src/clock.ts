/**
 * The time source of every time-based rule (rate limits, token and session expiry, webhook
 * schedules, cache lifetimes), injected so tests move time instead of waiting for it.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, as `Date.now()`. */
  now(): number;
}

/** The Nest injection token of the process's one `Clock` (provided once, by the runtime). */
export const CLOCK = Symbol('Clock');

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}

/** The wall clock, for code that is not built by Nest (caches, scripts). */
export const systemClock: Clock = new SystemClock();

/** ISO-8601 instants, so snapshots and messages survive JSON round trips unchanged. */
export type Instant = string;

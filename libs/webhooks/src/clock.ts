/** Time as the webhook relay and deliveries see it; injected so tests can move it (no real waiting). */
export interface Clock {
  now(): Date;
}

export const WEBHOOK_CLOCK = Symbol('WEBHOOK_CLOCK');

export const systemClock: Clock = { now: () => new Date() };

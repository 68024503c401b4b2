/** The time source of session expiry; tests replace it to expire tokens without waiting. */
export const CONNECT_SESSION_CLOCK = Symbol('CONNECT_SESSION_CLOCK');

export interface SessionClock {
  now(): number;
}

export const systemSessionClock: SessionClock = { now: () => Date.now() };

/** Time as token issuing and checking see it; injected so tests expire tokens without waiting. */
export interface OAuthClock {
  now(): number;
}

export const OAUTH_CLOCK = Symbol('OAUTH_CLOCK');

export const systemOAuthClock: OAuthClock = { now: () => Date.now() };

import { FAILURES_PER_EMAIL, THROTTLE_WINDOW_SECONDS, lockedForSeconds } from './signin-throttle.policy';

describe('sign-in throttling policy', () => {
  const start = new Date('2026-11-25T10:00:00Z');
  const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

  it('allows sign-in below the limit and locks at it until the window ends', () => {
    expect(lockedForSeconds(undefined, FAILURES_PER_EMAIL, start)).toBe(0);
    expect(lockedForSeconds({ failures: 4, windowStartedAt: start }, FAILURES_PER_EMAIL, at(10))).toBe(0);
    expect(lockedForSeconds({ failures: 5, windowStartedAt: start }, FAILURES_PER_EMAIL, at(10))).toBe(
      THROTTLE_WINDOW_SECONDS - 10,
    );
    expect(
      lockedForSeconds({ failures: 9, windowStartedAt: start }, FAILURES_PER_EMAIL, at(THROTTLE_WINDOW_SECONDS)),
    ).toBe(0);
  });
});

/** Failed sign-ins allowed per email in one window before it locks until the window ends. */
export const FAILURES_PER_EMAIL = 5;
/** Failed sign-ins allowed per client address in one window (many emails from one place). */
export const FAILURES_PER_ADDRESS = 30;
export const THROTTLE_WINDOW_SECONDS = 15 * 60;

export interface FailureCount {
  failures: number;
  windowStartedAt: Date;
}

/** Seconds until sign-in may be tried again, or 0 when it may be tried now. */
export function lockedForSeconds(count: FailureCount | undefined, limit: number, now: Date): number {
  if (!count) return 0;
  const windowEnds = count.windowStartedAt.getTime() + THROTTLE_WINDOW_SECONDS * 1000;
  if (windowEnds <= now.getTime() || count.failures < limit) return 0;
  return Math.ceil((windowEnds - now.getTime()) / 1000);
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Waits after the 1st, 2nd, ... failed attempt (SPEC section 6); daily after these. */
const RETRY_DELAYS_MS = [30 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR] as const;
const DAILY_RETRY_MS = DAY;
/** Retries stop this long after the first attempt; the delivery is then dead-lettered. */
export const RETRY_WINDOW_MS = 7 * DAY;

/**
 * When to try again after attempt number `attempts` (1-based) failed, or null to dead-letter.
 * The wait is counted from the failed attempt's start. A retry that would fall after the 7-day
 * window is moved to the window's end, so the last attempt is made exactly 7 days after the first.
 */
export function nextAttemptAt(firstAttemptAt: Date, attempts: number, attemptStartedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1] ?? DAILY_RETRY_MS;
  const next = attemptStartedAt.getTime() + delay;
  const deadline = firstAttemptAt.getTime() + RETRY_WINDOW_MS;
  if (next <= deadline) return new Date(next);
  if (attemptStartedAt.getTime() < deadline) return new Date(deadline);
  return null;
}

/** Every attempt's offset from the first when each starts on time and fails: the documented schedule. */
export function attemptOffsets(): number[] {
  const first = new Date(0);
  const offsets = [0];
  for (let at: Date | null = first; ;) {
    at = nextAttemptAt(first, offsets.length, at);
    if (!at) return offsets;
    offsets.push(at.getTime());
  }
}

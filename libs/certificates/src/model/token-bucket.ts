/**
 * A token bucket with continuous refill, as Let's Encrypt counts its limits: `capacity` tokens,
 * refilled at `capacity / periodSeconds` per second, never above `capacity`. Pure: the stored state
 * and `now` are passed in; callers persist what comes back.
 */
export interface BucketLimit {
  capacity: number;
  periodSeconds: number;
}

export interface BucketState {
  tokens: number;
  updatedAt: Date;
}

export type TakeResult = { ok: true; state: BucketState } | { ok: false; retryAt: Date };

/**
 * Refill arithmetic in floating point can land a hair short of a whole token at the very
 * millisecond `retryAt` names; this much shortfall still counts as enough.
 */
const EPSILON = 1e-9;

export const tokensPerMs = (limit: BucketLimit): number => limit.capacity / (limit.periodSeconds * 1000);

/**
 * Tokens in the bucket at `now`. A `now` before `updatedAt` (a transaction that started before
 * the previous holder of the row committed) refills nothing rather than going backwards.
 */
export function available(limit: BucketLimit, state: BucketState | undefined, now: Date): number {
  if (!state) return limit.capacity;
  const elapsed = Math.max(0, now.getTime() - state.updatedAt.getTime());
  return Math.min(limit.capacity, Math.max(0, state.tokens) + elapsed * tokensPerMs(limit));
}

/** The state at `now`; its clock never moves back, so no refill is counted twice. */
function settled(limit: BucketLimit, state: BucketState | undefined, now: Date, tokens: number): BucketState {
  const at = state && state.updatedAt.getTime() > now.getTime() ? state.updatedAt : now;
  return { tokens, updatedAt: at };
}

/** Takes `n` tokens, or says when (whole milliseconds, never earlier than needed) they will be there. */
export function take(limit: BucketLimit, state: BucketState | undefined, now: Date, n = 1): TakeResult {
  if (n < 0 || n > limit.capacity) throw new RangeError(`${n} tokens never fit a bucket of ${limit.capacity}`);
  const have = available(limit, state, now);
  if (have + EPSILON >= n) return { ok: true, state: settled(limit, state, now, Math.max(0, have - n)) };
  return { ok: false, retryAt: grantedBy(limit, state, now, n) };
}

/**
 * When `n` takes of one token each, made as soon as each arrives, will all have been granted: the
 * expected start of the item a queue serves n-th, when nothing else draws on the bucket.
 */
export function grantedBy(limit: BucketLimit, state: BucketState | undefined, now: Date, n: number): Date {
  const from = Math.max(now.getTime(), state?.updatedAt.getTime() ?? 0);
  const missing = n - available(limit, state, now);
  if (missing <= EPSILON) return new Date(from);
  // Half the tolerance off the wait: rounding up whole milliseconds then lands inside it, not 1 ms late.
  return new Date(from + Math.ceil((missing - EPSILON / 2) / tokensPerMs(limit)));
}

/** Spends `n` whatever is there (a failure already happened): down to zero, never below. */
export function spend(limit: BucketLimit, state: BucketState | undefined, now: Date, n = 1): BucketState {
  return settled(limit, state, now, Math.max(0, available(limit, state, now) - n));
}

/** Gives `n` back (an order that never reached the CA): up to the capacity, never above. */
export function refund(limit: BucketLimit, state: BucketState | undefined, now: Date, n = 1): BucketState {
  return settled(limit, state, now, Math.min(limit.capacity, available(limit, state, now) + n));
}

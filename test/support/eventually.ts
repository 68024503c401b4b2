/** Waits `ms` (for pacing load or letting time pass, never for a state to settle: use `eventually`). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface EventuallyOptions {
  /** Give up after this long (default 20 s). */
  timeoutMs?: number;
  /** Pause between two checks (default 100 ms). */
  everyMs?: number;
  /** What is awaited, for the failure message. */
  what?: string;
}

/**
 * Polls `check` until `done(value)` holds and returns that value; past the deadline, fails with
 * what was awaited and the last value seen (or the last error thrown). For settling states:
 * placement, coverage, membership, counts that grow.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  done: (value: T) => boolean = Boolean,
  { timeoutMs = 20_000, everyMs = 100, what = 'the condition' }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: { value?: T; error?: unknown } = {};
  for (;;) {
    try {
      const value = await check();
      if (done(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(everyMs, Math.max(0, deadline - Date.now())));
  }
  const seen =
    'error' in last && last.error !== undefined
      ? `last check threw: ${last.error instanceof Error ? last.error.message : describe(last.error)}`
      : `last seen: ${describe(last.value)}`;
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; ${seen}`);
}

/** `eventually` for a probe that answers `undefined` until the awaited value exists. */
export async function eventuallyDefined<T>(
  check: () => T | undefined | Promise<T | undefined>,
  options: EventuallyOptions = {},
): Promise<T> {
  return (await eventually(check, (value) => value !== undefined, options)) as T;
}

function describe(value: unknown): string {
  if (value instanceof Map) return JSON.stringify([...value]);
  if (value instanceof Set) return JSON.stringify([...value]);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

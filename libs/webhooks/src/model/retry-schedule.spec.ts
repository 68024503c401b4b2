import fc from 'fast-check';
import { RETRY_WINDOW_MS, attemptOffsets, nextAttemptAt } from './retry-schedule';

const s = 1_000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('retry schedule', () => {
  it('waits 30s, 1m, 5m, 30m, 2h, 6h, then daily, with a last attempt at 7 days, then dead-letters', () => {
    const waits = [30 * s, m, 5 * m, 30 * m, 2 * h, 6 * h, d, d, d, d, d, d];
    const expected = waits.reduce((acc, wait) => [...acc, acc[acc.length - 1] + wait], [0]);
    expect(attemptOffsets()).toEqual([...expected, 7 * d]);
    expect(attemptOffsets()).toHaveLength(14);
  });

  it.each([
    [1, 30 * s],
    [2, m],
    [3, 5 * m],
    [4, 30 * m],
    [5, 2 * h],
    [6, 6 * h],
    [7, d],
    [12, d],
  ])('after failed attempt %i waits %i ms from that attempt', (attempts, wait) => {
    const first = new Date('2026-01-01T00:00:00Z');
    const started = new Date(first.getTime() + 1_000);
    expect(nextAttemptAt(first, attempts, started)?.getTime()).toBe(started.getTime() + wait);
  });

  it('dead-letters once an attempt at or after the 7-day mark fails', () => {
    const first = new Date(0);
    expect(nextAttemptAt(first, 14, new Date(RETRY_WINDOW_MS))).toBeNull();
    expect(nextAttemptAt(first, 3, new Date(RETRY_WINDOW_MS + 5 * d))).toBeNull();
  });

  it('never schedules past the window, never before the attempt, always later (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: RETRY_WINDOW_MS * 2 }), (n, since) => {
        const first = new Date(1_000_000);
        const started = new Date(first.getTime() + since);
        const next = nextAttemptAt(first, n, started);
        if (since >= RETRY_WINDOW_MS) return next === null;
        return next !== null && next > started && next.getTime() <= first.getTime() + RETRY_WINDOW_MS;
      }),
    );
  });
});

import fc from 'fast-check';
import { BucketLimit, BucketState, available, grantedBy, refund, spend, take } from './token-bucket';

/** Let's Encrypt's new-orders limit: 300 per 3 hours, one token back every 36 s. */
const orders: BucketLimit = { capacity: 300, periodSeconds: 3 * 3600 };
const t0 = new Date('2026-11-27T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const state = (tokens: number, updatedAt = t0): BucketState => ({ tokens, updatedAt });

describe('token bucket', () => {
  it.each([
    ['a bucket never seen is full', undefined, 0, 300],
    ['nothing has refilled yet', state(0), 0, 0],
    ['one token every 36 s', state(0), 36_000, 1],
    ['half a token after 18 s', state(0), 18_000, 0.5],
    ['never above the capacity', state(299), 3_600_000, 300],
    ['a clock behind the last update refills nothing', state(10), -60_000, 10],
  ])('available: %s', (_, stored, elapsed, expected) => {
    expect(available(orders, stored, at(elapsed))).toBeCloseTo(expected, 9);
  });

  it.each([
    ['takes one from a full bucket', undefined, 0, 1, { ok: true, state: state(299) }],
    ['takes the last token', state(1), 0, 1, { ok: true, state: state(0) }],
    ['takes refilled tokens', state(0), 72_000, 2, { ok: true, state: state(0, at(72_000)) }],
    ['waits 36 s for the next token', state(0), 0, 1, { ok: false, retryAt: at(36_000) }],
    ['waits the rest of a half-refilled token', state(0), 18_000, 1, { ok: false, retryAt: at(36_000) }],
    ['waits for n tokens at once', state(0.5), 0, 3, { ok: false, retryAt: at(90_000) }],
    ['waits from the later clock', state(0, at(10_000)), 0, 1, { ok: false, retryAt: at(46_000) }],
  ])('take: %s', (_, stored, elapsed, n, expected) => {
    expect(take(orders, stored, at(elapsed), n)).toEqual(expected);
  });

  it('refuses a request the bucket could never hold', () => {
    expect(() => take(orders, undefined, t0, 301)).toThrow(RangeError);
    expect(() => take(orders, undefined, t0, -1)).toThrow(RangeError);
  });

  it('tells when the n-th of a queue of takes is granted, past the capacity too', () => {
    expect(grantedBy(orders, state(2), t0, 2)).toEqual(t0);
    expect(grantedBy(orders, state(2), t0, 3)).toEqual(at(36_000));
    expect(grantedBy(orders, state(0), t0, 1_000)).toEqual(at(36_000_000));
  });

  it('spends down to zero and refunds up to the capacity', () => {
    expect(spend(orders, state(2), t0, 5)).toEqual(state(0));
    expect(spend({ capacity: 5, periodSeconds: 3600 }, undefined, t0)).toEqual(state(4));
    expect(refund(orders, state(299.5), t0, 3)).toEqual(state(300));
    expect(refund(orders, state(0), at(36_000))).toEqual(state(2, at(36_000)));
  });

  const limit = fc.record({
    capacity: fc.integer({ min: 1, max: 1_000 }),
    periodSeconds: fc.integer({ min: 1, max: 7 * 86_400 }),
  });
  /** A bucket used by takes, spends and refunds at non-decreasing times, some of them waiting as told. */
  const step = fc.record({
    kind: fc.constantFrom('take', 'take', 'spend', 'refund'),
    n: fc.double({ min: 0, max: 1, noNaN: true }),
    afterMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 86_400_000 })),
  });

  it('never holds more than its capacity nor less than nothing', () => {
    fc.assert(
      fc.property(limit, fc.array(step, { maxLength: 60 }), (l, steps) => {
        let s: BucketState | undefined;
        let now = t0.getTime();
        for (const { kind, n, afterMs } of steps) {
          now += afterMs;
          const tokens = Math.max(1, Math.round(n * l.capacity));
          if (kind === 'take') {
            const r = take(l, s, new Date(now), tokens);
            if (r.ok) s = r.state;
          } else s = (kind === 'spend' ? spend : refund)(l, s, new Date(now), tokens);
          const have = available(l, s, new Date(now));
          expect(have).toBeGreaterThanOrEqual(0);
          expect(have).toBeLessThanOrEqual(l.capacity);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('grants a refused take at the time it named', () => {
    fc.assert(
      fc.property(
        limit,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (l, held, wanted) => {
          const s = state(held * l.capacity);
          const n = Math.max(1, Math.ceil(wanted * l.capacity));
          const r = take(l, s, t0, n);
          if (r.ok) return;
          expect(r.retryAt.getTime()).toBeGreaterThan(t0.getTime());
          expect(take(l, s, r.retryAt, n).ok).toBe(true);
          // And a millisecond earlier they were not all there yet: the wait is not padded.
          expect(available(l, s, new Date(r.retryAt.getTime() - 1))).toBeLessThan(n);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

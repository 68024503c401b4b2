import fc from 'fast-check';
import { reservationSize, settleReservation } from './rate-limit.reservations';

/** Replays reservations of several replicas against one counter, as PostgreSQL serializes them. */
function simulate(limit: number, requests: { replica: number }[]) {
  let counter = 0;
  const budgets = new Map<number, { next: number; left: number }>();
  const admitted: { replica: number; count: number }[] = [];
  let refused = 0;
  for (const { replica } of requests) {
    const budget = budgets.get(replica);
    if (budget && budget.left > 0) {
      budget.left--;
      admitted.push({ replica, count: budget.next++ });
      continue;
    }
    const asked = Math.max(1, reservationSize(limit));
    counter += asked;
    const settled = settleReservation({ limit, asked, total: counter, wanted: 1 });
    if (settled.budget) budgets.set(replica, { ...settled.budget });
    else budgets.delete(replica);
    if (settled.counts[0] <= limit) admitted.push({ replica, count: settled.counts[0] });
    else refused++;
  }
  const unspent = [...budgets.values()].reduce((sum, b) => sum + b.left, 0);
  return { admitted, refused, unspent };
}

describe('rate limit reservations', () => {
  it('reserves a tenth of the limit, 1 to 100', () => {
    expect([1, 5, 30, 60, 100, 600, 5000].map(reservationSize)).toEqual([1, 1, 3, 6, 10, 60, 100]);
  });

  it('tells waiting requests their counts in order and keeps what was granted beyond them', () => {
    expect(settleReservation({ limit: 60, asked: 6, total: 6, wanted: 1 })).toEqual({
      counts: [1],
      budget: { next: 2, left: 5 },
    });
    // 84 waiting, 54 left under the limit: 54 admitted (7..60), 30 refused (61..90), nothing kept.
    const { counts, budget } = settleReservation({ limit: 60, asked: 84, total: 90, wanted: 84 });
    expect(counts[0]).toBe(7);
    expect(counts.filter((c) => c <= 60)).toHaveLength(54);
    expect(budget).toBeUndefined();
  });

  it('grants nothing once the counter is past the limit, whoever counted it', () => {
    expect(settleReservation({ limit: 60, asked: 6, total: 70, wanted: 2 })).toEqual({ counts: [65, 66] });
  });

  it('on one replica lets exactly the limit through, counts 1..limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 0, max: 900 }), (limit, n) => {
        const { admitted } = simulate(
          limit,
          Array.from({ length: n }, () => ({ replica: 0 })),
        );
        expect(admitted.map((a) => a.count)).toEqual(Array.from({ length: Math.min(n, limit) }, (_, i) => i + 1));
      }),
    );
  });

  it('across replicas never lets more than the limit through, and refuses early only by unspent reserves', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 600 }),
        (limit, replicas) => {
          const { admitted, refused, unspent } = simulate(
            limit,
            replicas.map((replica) => ({ replica })),
          );
          expect(admitted.length).toBeLessThanOrEqual(limit);
          if (refused > 0) expect(admitted.length + unspent).toBe(limit);
          expect(unspent).toBeLessThanOrEqual(4 * (reservationSize(limit) - 1));
        },
      ),
    );
  });
});

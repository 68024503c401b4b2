/** What a replica may still let through of one bucket's window without asking PostgreSQL. */
export interface RateBudget {
  /** The count the next request spent from this reserve is told. */
  next: number;
  left: number;
  /** The end of the bucket's window (ms). */
  expiresAt: number;
}

/** The reserve asked for beyond the requests waiting: a tenth of the limit, 1 to 100. Pure. */
export function reservationSize(limit: number): number {
  return Math.min(100, Math.max(1, Math.ceil(limit / 10)));
}

/**
 * One bucket's share of a reservation statement: `asked` was added to the counter, which then
 * stood at `total`. The `wanted` waiting requests are told `before + 1, before + 2, ...` in arrival
 * order (a count above the limit is a refusal); what was granted beyond them is the reserve kept in
 * memory. PostgreSQL granted only what was left under the limit, so every replica together stays
 * within it. Pure.
 */
export function settleReservation(input: { limit: number; asked: number; total: number; wanted: number }): {
  counts: number[];
  budget?: Omit<RateBudget, 'expiresAt'>;
} {
  const { limit, asked, total, wanted } = input;
  const before = total - asked;
  const granted = Math.max(0, Math.min(asked, limit - before));
  const counts = Array.from({ length: wanted }, (_, j) => before + j + 1);
  const left = granted - Math.min(wanted, granted);
  return { counts, budget: left > 0 ? { next: before + wanted + 1, left } : undefined };
}

import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { RateBudget, reservationSize, settleReservation } from './rate-limit.reservations';

export interface Consumption {
  bucket: string;
  windowStart: number;
  windowSeconds: number;
  limit: number;
}

interface Waiting {
  items: Consumption[];
  counts: number[];
  /** Indexes of `items` still to be counted by the database. */
  pending: number[];
  resolve(counts: number[]): void;
  reject(error: unknown): void;
}

/** Requests counted by one statement at most (the statement's arrays stay small). */
const MAX_BATCH = 512;
/** Reserved budgets kept in memory at most; past it they are dropped (safe: they are only lost). */
const MAX_BUDGETS = 200_000;

const keyOf = (item: Consumption) => `${item.windowStart} ${item.bucket}`;

/**
 * Fixed-window counters in PostgreSQL, so every API replica counts against one budget; decided in
 * memory for most requests.
 *
 * Reservations: when a bucket has nothing left in memory, the replica asks PostgreSQL for the
 * requests waiting on it plus a small reserve (a tenth of the limit, `reservationSize`), in one
 * upsert for every bucket waiting (group commit: while one statement is in flight, the next
 * requests wait and go together). PostgreSQL grants at most what is left of the limit, so no
 * number of replicas can ever let more than the limit through. The reserve is then spent in memory
 * without a round trip: most requests are decided synchronously (`tryConsumeLocally`).
 * On one replica every count is exact (each request sees its own count in arrival order). Across
 * replicas the only error is in the safe direction: a replica's unspent reserve (fewer than a tenth
 * of the limit) is counted as used, so a key served by several replicas can be refused that much
 * early per other replica in the window. README "Rate limits" says so.
 */
@Injectable()
export class RateLimitStore {
  private lastPurge = 0;
  private waiting: Waiting[] = [];
  private flushing = false;
  private readonly budgets = new Map<string, RateBudget>();

  constructor(private readonly db: MikroSqlExecutor) {}

  /** Counts from the reserves in memory, or undefined (and nothing spent) when one is empty. */
  tryConsumeLocally(items: Consumption[]): number[] | undefined {
    for (const item of items) {
      if (!((this.budgets.get(keyOf(item))?.left ?? 0) > 0)) return undefined;
    }
    return items.map((item) => this.spend(this.budgets.get(keyOf(item))!));
  }

  consume(items: Consumption[], nowMs: number): Promise<number[]> {
    this.purge(nowMs);
    const local = this.tryConsumeLocally(items);
    if (local) return Promise.resolve(local);
    return new Promise((resolve, reject) => {
      this.waiting.push({ items, counts: [], pending: [], resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private spend(budget: RateBudget): number {
    budget.left--;
    return budget.next++;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        // Reserves granted to the batch before may already cover part of this one.
        for (const w of batch) {
          w.pending = [];
          w.items.forEach((item, i) => {
            const budget = this.budgets.get(keyOf(item));
            if (budget && budget.left > 0) w.counts[i] = this.spend(budget);
            else w.pending.push(i);
          });
        }
        const asking = batch.filter((w) => w.pending.length);
        try {
          if (asking.length) this.settle(asking, await this.reserve(asking));
          for (const w of batch) w.resolve(w.counts);
        } catch (error) {
          // Those served from reserves already kept theirs; only the ones waiting on the statement fail.
          for (const w of batch) {
            if (w.pending.length) w.reject(error);
            else w.resolve(w.counts);
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Demand per bucket, in arrival order. */
  private demandOf(batch: Waiting[]): Map<string, { item: Consumption; demand: number }> {
    const demand = new Map<string, { item: Consumption; demand: number }>();
    for (const w of batch) {
      for (const i of w.pending) {
        const key = keyOf(w.items[i]);
        const entry = demand.get(key) ?? { item: w.items[i], demand: 0 };
        entry.demand++;
        demand.set(key, entry);
      }
    }
    return demand;
  }

  /** One upsert for the whole batch: each bucket's new total after adding what it asks for. */
  private async reserve(batch: Waiting[]): Promise<Map<string, { asked: number; total: number }>> {
    const entries = [...this.demandOf(batch).entries()].map(([key, { item, demand }]) => ({
      key,
      item,
      asked: Math.max(demand, reservationSize(item.limit)),
    }));
    const rows = await this.db.query<{ bucket: string; w: number | string; count: number | string }>(
      `insert into rate_limit_counters (bucket, window_start, count, expires_at)
       select b, to_timestamp(w / 1000.0), n, to_timestamp(w / 1000.0) + interval '1 day'
       from unnest(?::text[], ?::float8[], ?::int[]) as u(b, w, n)
       on conflict (bucket, window_start) do update set count = rate_limit_counters.count + excluded.count
       returning bucket, round(extract(epoch from window_start) * 1000)::float8 as w, count`,
      [entries.map((e) => e.item.bucket), entries.map((e) => e.item.windowStart), entries.map((e) => e.asked)],
    );
    const totals = new Map(rows.map((r) => [`${Number(r.w)} ${r.bucket}`, Number(r.count)]));
    return new Map(
      entries.map((e) => {
        const total = totals.get(e.key);
        if (total === undefined) throw new Error(`rate limit counters: no row came back for ${e.key}`);
        return [e.key, { asked: e.asked, total }];
      }),
    );
  }

  /** Hands out each bucket's counts in arrival order and keeps the unspent reserve in memory. */
  private settle(batch: Waiting[], totals: Map<string, { asked: number; total: number }>): void {
    const demand = this.demandOf(batch);
    const handedOut = new Map<string, number[]>();
    for (const [key, { item, demand: wanted }] of demand) {
      const { asked, total } = totals.get(key)!;
      const { counts, budget } = settleReservation({ limit: item.limit, asked, total, wanted });
      handedOut.set(key, counts);
      if (budget) {
        if (this.budgets.size >= MAX_BUDGETS) this.budgets.clear();
        this.budgets.set(key, { ...budget, expiresAt: item.windowStart + item.windowSeconds * 1000 });
      }
    }
    for (const w of batch) {
      for (const i of w.pending) w.counts[i] = handedOut.get(keyOf(w.items[i]))!.shift()!;
    }
  }

  private purge(nowMs: number): void {
    if (nowMs - this.lastPurge <= 60_000) return;
    this.lastPurge = nowMs;
    for (const [key, budget] of this.budgets) if (budget.expiresAt <= nowMs) this.budgets.delete(key);
    void this.db
      .query("delete from rate_limit_counters where expires_at < now() - interval '1 minute'")
      .catch(() => undefined);
  }
}

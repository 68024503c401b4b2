import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface Consumption {
  bucket: string;
  windowStart: number;
}

interface Waiting {
  items: Consumption[];
  resolve(counts: number[]): void;
  reject(error: unknown): void;
}

/** Requests counted by one statement at most (the statement's arrays stay small). */
const MAX_BATCH = 512;

const keyOf = (bucket: string, windowStart: number) => `${windowStart} ${bucket}`;

/**
 * Fixed-window counters in PostgreSQL, so every API replica counts against one budget.
 *
 * Group commit: while one statement is in flight, the requests that arrive wait and are then
 * counted together by the next one, each bucket incremented by its number of requests. Every
 * request still gets the exact count a statement of its own would have given it (the counts
 * of one bucket in one batch are handed out in arrival order), and PostgreSQL stays the only
 * counter, so the budget is shared by all replicas. An idle replica sends each request at once;
 * a busy one sends one statement per round trip instead of one per request.
 */
@Injectable()
export class RateLimitStore {
  private lastPurge = 0;
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(private readonly db: MikroSqlExecutor) {}

  consume(items: Consumption[], nowMs: number): Promise<number[]> {
    if (nowMs - this.lastPurge > 60_000) {
      this.lastPurge = nowMs;
      void this.db
        .query("delete from rate_limit_counters where expires_at < now() - interval '1 minute'")
        .catch(() => undefined);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ items, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          this.settle(batch, await this.count(batch));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** One upsert for the whole batch: the new total of each (bucket, window). */
  private async count(batch: Waiting[]): Promise<Map<string, number>> {
    const increments = new Map<string, Consumption & { n: number }>();
    for (const { items } of batch) {
      for (const item of items) {
        const key = keyOf(item.bucket, item.windowStart);
        const entry = increments.get(key) ?? { ...item, n: 0 };
        entry.n++;
        increments.set(key, entry);
      }
    }
    const entries = [...increments.values()];
    const rows = await this.db.query<{ bucket: string; w: number | string; count: number | string }>(
      `insert into rate_limit_counters (bucket, window_start, count, expires_at)
       select b, to_timestamp(w / 1000.0), n, to_timestamp(w / 1000.0) + interval '1 day'
       from unnest(?::text[], ?::float8[], ?::int[]) as u(b, w, n)
       on conflict (bucket, window_start) do update set count = rate_limit_counters.count + excluded.count
       returning bucket, round(extract(epoch from window_start) * 1000)::float8 as w, count`,
      [entries.map((e) => e.bucket), entries.map((e) => e.windowStart), entries.map((e) => e.n)],
    );
    return new Map(rows.map((r) => [keyOf(r.bucket, Number(r.w)), Number(r.count)]));
  }

  /** Hands out each bucket's counts in arrival order: the last request of a batch sees the total. */
  private settle(batch: Waiting[], totals: Map<string, number>): void {
    const handedOut = new Map<string, number>();
    const increments = new Map<string, number>();
    for (const { items } of batch) {
      for (const item of items) {
        const key = keyOf(item.bucket, item.windowStart);
        increments.set(key, (increments.get(key) ?? 0) + 1);
      }
    }
    for (const w of batch) {
      w.resolve(
        w.items.map((item) => {
          const key = keyOf(item.bucket, item.windowStart);
          const before = (totals.get(key) ?? increments.get(key) ?? 1) - (increments.get(key) ?? 1);
          const seen = (handedOut.get(key) ?? 0) + 1;
          handedOut.set(key, seen);
          return before + seen;
        }),
      );
    }
  }
}

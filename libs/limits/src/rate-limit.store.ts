import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface Consumption {
  bucket: string;
  windowStart: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every API replica counts against one budget. One
 * statement counts a request against all its buckets and returns the new counts.
 */
@Injectable()
export class RateLimitStore {
  private lastPurge = 0;

  constructor(private readonly db: MikroSqlExecutor) {}

  async consume(items: Consumption[], nowMs: number): Promise<number[]> {
    if (nowMs - this.lastPurge > 60_000) {
      this.lastPurge = nowMs;
      void this.db
        .query("delete from rate_limit_counters where expires_at < now() - interval '1 minute'")
        .catch(() => undefined);
    }
    const rows = await this.db.query<{ bucket: string; count: number }>(
      `insert into rate_limit_counters (bucket, window_start, count, expires_at)
       select b, to_timestamp(w / 1000.0), 1, to_timestamp(w / 1000.0) + interval '1 day' from unnest(?::text[], ?::float8[]) as u(b, w)
       on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
       returning bucket, count`,
      [items.map((i) => i.bucket), items.map((i) => i.windowStart)],
    );
    const counts = new Map(rows.map((r) => [r.bucket, Number(r.count)]));
    return items.map((i) => counts.get(i.bucket) ?? 1);
  }
}

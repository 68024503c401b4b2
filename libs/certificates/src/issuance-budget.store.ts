import { MikroSqlExecutor, SqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { IssuanceLimit } from './model/issuance-limits';
import { BucketState, refund, spend, take } from './model/token-bucket';

export interface BudgetRequest {
  key: string;
  limit: IssuanceLimit;
  /** 1 unless said. */
  tokens?: number;
}

/** Refused: `retryAt` is when every bucket asked would have enough; `key` is the one that waits longest. */
export type BudgetAnswer = { granted: true } | { granted: false; retryAt: Date; key: string };

interface Row {
  key: string;
  tokens: number | null;
  updated_at: Date | null;
  now: Date;
}

/**
 * Inserts the buckets not seen yet (full) and locks every one, in key order so that two orders
 * sharing buckets never deadlock; one statement answers each bucket's state and the database clock
 * (the nodes' clocks differ). The no-op update is what makes an existing row locked and returned.
 */
const LOCK_SQL = `insert into issuance_buckets as b (key, tokens, updated_at)
  select k, c, now() from unnest(?::text[], ?::float8[]) as r(k, c) order by k
  on conflict (key) do update set tokens = b.tokens
  returning key, tokens, updated_at, now() as now`;
const SAVE_SQL = `update issuance_buckets b set tokens = u.tokens, updated_at = u.at
  from unnest(?::text[], ?::float8[], ?::timestamptz[]) as u(key, tokens, at) where b.key = u.key`;
const READ_SQL = `select r.k as key, b.tokens, b.updated_at, now() as now
  from unnest(?::text[]) as r(k) left join issuance_buckets b on b.key = r.k`;

/**
 * The CA's limits as token buckets in `issuance_buckets`, shared by every node: an order takes from
 * all its buckets or from none. The math is the pure `model/token-bucket.ts`; this applies it to
 * rows locked `for update` (through the upsert) inside one transaction.
 */
@Injectable()
export class IssuanceBudget {
  constructor(private readonly db: MikroSqlExecutor) {}

  /** Takes from every bucket, or from none and says until when to wait. */
  async take(requests: BudgetRequest[]): Promise<BudgetAnswer> {
    const wanted = merged(requests);
    if (!wanted.length) return { granted: true };
    return this.db.transaction(async (tx) => {
      const rows = await lock(tx, wanted);
      const saved: Array<[string, BucketState]> = [];
      const refused: Array<{ key: string; retryAt: Date }> = [];
      for (const r of wanted) {
        const { state, now } = rows.get(r.key)!;
        const result = take(r.limit, state, now, r.tokens);
        if (result.ok) saved.push([r.key, result.state]);
        else refused.push({ key: r.key, retryAt: result.retryAt });
      }
      if (refused.length) return latest(refused);
      await save(tx, saved);
      return { granted: true };
    });
  }

  /** What `take` would answer, taking nothing and locking nothing. */
  async check(requests: BudgetRequest[]): Promise<BudgetAnswer> {
    const wanted = merged(requests);
    if (!wanted.length) return { granted: true };
    const rows = stateOf(await this.db.query<Row>(READ_SQL, [wanted.map((r) => r.key)]));
    const refused = wanted.flatMap((r) => {
      const { state, now } = rows.get(r.key)!;
      const result = take(r.limit, state, now, r.tokens);
      return result.ok ? [] : [{ key: r.key, retryAt: result.retryAt }];
    });
    return refused.length ? latest(refused) : { granted: true };
  }

  /** Counts what already happened (a failed validation): down to zero, never below. */
  spend(key: string, limit: IssuanceLimit, tokens = 1): Promise<void> {
    return this.adjust({ key, limit, tokens }, spend);
  }

  /** Gives back what was taken for nothing (an order that never reached the CA): up to the capacity. */
  refund(key: string, limit: IssuanceLimit, tokens = 1): Promise<void> {
    return this.adjust({ key, limit, tokens }, refund);
  }

  private adjust(request: Required<BudgetRequest>, apply: typeof spend): Promise<void> {
    return this.db.transaction(async (tx) => {
      const { state, now } = (await lock(tx, [request])).get(request.key)!;
      await save(tx, [[request.key, apply(request.limit, state, now, request.tokens)]]);
    });
  }
}

/** One request per key (the upsert may touch a row once), tokens added up. */
function merged(requests: BudgetRequest[]): Array<Required<BudgetRequest>> {
  const byKey = new Map<string, Required<BudgetRequest>>();
  for (const r of requests) {
    const seen = byKey.get(r.key);
    byKey.set(r.key, { ...r, tokens: (seen?.tokens ?? 0) + (r.tokens ?? 1) });
  }
  return [...byKey.values()];
}

async function lock(tx: SqlExecutor, wanted: Array<Required<BudgetRequest>>) {
  const params = [wanted.map((r) => r.key), wanted.map((r) => r.limit.capacity)];
  return stateOf(await tx.query<Row>(LOCK_SQL, params));
}

function stateOf(rows: Row[]): Map<string, { state: BucketState | undefined; now: Date }> {
  return new Map(
    rows.map((r) => [
      r.key,
      {
        state: r.updated_at ? { tokens: Number(r.tokens), updatedAt: new Date(r.updated_at) } : undefined,
        now: new Date(r.now),
      },
    ]),
  );
}

async function save(tx: SqlExecutor, states: Array<[string, BucketState]>): Promise<void> {
  const params = [
    states.map(([k]) => k),
    states.map(([, s]) => s.tokens),
    states.map(([, s]) => s.updatedAt.toISOString()),
  ];
  await tx.query(SAVE_SQL, params);
}

function latest(refused: Array<{ key: string; retryAt: Date }>): BudgetAnswer {
  const last = refused.reduce((a, b) => (b.retryAt.getTime() > a.retryAt.getTime() ? b : a));
  return { granted: false, retryAt: last.retryAt, key: last.key };
}

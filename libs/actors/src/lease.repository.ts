import type { SqlExecutor } from '@app/persistence';

export interface Lease {
  shard: number;
  epoch: number;
}

interface LeaseRow {
  shard: number;
  epoch: string;
}

/** `{1,2,3}`: a PostgreSQL array literal of integers, passed as one text parameter. */
const arrayLiteral = (values: number[]) => `{${values.join(',')}}`;

const toLease = (row: LeaseRow): Lease => ({ shard: Number(row.shard), epoch: Number(row.epoch) });

/**
 * Shard leases in PostgreSQL, the authority on ownership. All times are the database's clock;
 * every claim bumps the epoch, the fencing token that snapshot writes are checked against.
 */
export class LeaseRepository {
  constructor(
    private readonly db: SqlExecutor,
    private readonly ttlMs: number,
  ) {}

  /** Takes the shards that are free, expired or already ours; returns those taken. */
  async claim(owner: string, shards: number[]): Promise<Lease[]> {
    if (!shards.length) return [];
    const rows = await this.db.query<LeaseRow>(
      `update shard_leases set owner = ?, epoch = epoch + 1, expires_at = now() + ? * interval '1 millisecond'
       where shard = any(?::int[]) and (owner is null or owner = ? or expires_at < now())
       returning shard, epoch`,
      [owner, this.ttlMs, shards, owner],
    );
    return rows.map(toLease);
  }

  /**
   * Extends the leases still held at the given epochs; returns the shards renewed. Runs every few
   * seconds over every shard a node holds, so it stays cheap: the arrays go as array literals (the
   * driver would escape each element) and the renewed shards come back as one string, not a row each.
   */
  async renew(owner: string, leases: Lease[]): Promise<Set<number>> {
    if (!leases.length) return new Set();
    const rows = await this.db.query<{ shards: string | null }>(
      `with renewed as (
         update shard_leases l set expires_at = now() + ? * interval '1 millisecond'
         from unnest(?::int[], ?::bigint[]) as h(shard, epoch)
         where l.shard = h.shard and l.epoch = h.epoch and l.owner = ? and l.expires_at > now()
         returning l.shard
       )
       select string_agg(shard::text, ',') as shards from renewed`,
      [this.ttlMs, arrayLiteral(leases.map((l) => l.shard)), arrayLiteral(leases.map((l) => l.epoch)), owner],
    );
    const list = rows[0]?.shards;
    return new Set(list ? list.split(',').map(Number) : []);
  }

  async release(owner: string, shards: number[]): Promise<void> {
    if (!shards.length) return;
    await this.db.query(
      `update shard_leases set owner = null, expires_at = now() where owner = ? and shard = any(?::int[])`,
      [owner, shards],
    );
  }

  /** Current owners: live leases only. */
  async owners(): Promise<Map<string, number[]>> {
    const rows = await this.db.query<{ owner: string; shard: number }>(
      'select owner, shard from shard_leases where owner is not null and expires_at > now() order by shard',
    );
    const owners = new Map<string, number[]>();
    for (const row of rows) owners.set(row.owner, [...(owners.get(row.owner) ?? []), Number(row.shard)]);
    return owners;
  }
}

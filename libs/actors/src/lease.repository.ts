import type { SqlExecutor } from '@app/persistence';
import { PRESENCE_LOCK_CLASS, PresenceLostError, PresenceSource, presenceHeldSql } from './presence';

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

/**
 * Leases renewed per statement. Each statement is its own transaction, and a transaction holds back
 * what runs behind the oldest one still running (the outbox relay's watermark, README "How it
 * runs"): one statement over 4,096 rows took 25-60 ms on the benchmark VM; 512 take a few.
 */
const RENEW_CHUNK = 512;

/** The renewal's array literals per list of leases, chunk by chunk: a node renews the same list until it changes. */
const literals = new WeakMap<readonly Lease[], [string, string][]>();
const renewalLiterals = (leases: readonly Lease[]): [string, string][] => {
  let chunks = literals.get(leases);
  if (!chunks) {
    chunks = [];
    for (let i = 0; i < leases.length; i += RENEW_CHUNK) {
      const chunk = leases.slice(i, i + RENEW_CHUNK);
      chunks.push([arrayLiteral(chunk.map((l) => l.shard)), arrayLiteral(chunk.map((l) => l.epoch))]);
    }
    literals.set(leases, chunks);
  }
  return chunks;
};

const toLease = (row: LeaseRow): Lease => ({ shard: Number(row.shard), epoch: Number(row.epoch) });

/** Nodes whose leases may be taken before they expire, once shown gone (ShardManager's dead owners). */
export interface TakeOver {
  owners: string[];
  /** Of `owners`, those gone from NATS too, asked while their presence locks are held here. */
  stillGone(owners: string[]): Promise<string[]>;
}

/**
 * The fence of a group commit: the leases among `shards` (placeholder of an int array) that `owner`
 * (placeholder) holds live, with their epochs, locked until the transaction ends.
 * `for key share` makes another node's claim (`for update`) wait until the write is committed or
 * rolled back, but lets this node's own renewal through (an update of `expires_at` only takes a
 * no-key lock): with `for share`, a write stuck behind a row lock (a long update of `domains`) held
 * the renewal up past the leases' deadline, and the node dropped every shard it had.
 */
export const fenceSql = (shards: string, owner: string) =>
  `select shard, epoch from shard_leases where shard = any(${shards}::int[]) and owner = ${owner}::text
   and expires_at > now() for key share`;

/**
 * Shard leases in PostgreSQL, the authority on ownership. All times are the database's clock;
 * every claim bumps the epoch, the fencing token that snapshot writes are checked against.
 */
export class LeaseRepository {
  constructor(
    private readonly db: SqlExecutor,
    private readonly ttlMs: number,
    /** In a cluster: claims and renewals go through only while this node holds its presence lock. */
    private readonly presence?: PresenceSource,
  ) {}

  /** The condition that `owner` holds its presence lock in its own session, and its parameters. */
  private present(owner: string): { sql: string; params: unknown[] } {
    if (!this.presence) return { sql: 'true', params: [] };
    const pid = this.presence.pid();
    if (pid === undefined) throw new PresenceLostError();
    return { sql: presenceHeldSql('?::text', '?::int'), params: [owner, pid] };
  }

  /**
   * Takes the shards that are free, expired or already ours; returns those taken. The rows are locked
   * `for update` first (in shard order, so two claims cannot deadlock): that lock waits for every
   * write still fenced on them (`fenceSql`), which a plain update of these columns would not.
   *
   * With `takeOver`, also the live leases of owners that are gone: in one transaction this node takes
   * each owner's presence lock (shared, so the survivors take over side by side), which succeeds only
   * if no session of that owner holds it, and while holding it asks NATS again. A node that holds
   * neither its presence session nor a NATS connection can serve nothing; while we hold its lock it
   * cannot renew (it needs the lock) nor serve again after reconnecting (it renews first), and once
   * we commit its epochs are stale.
   */
  async claim(owner: string, shards: number[], takeOver?: TakeOver): Promise<Lease[]> {
    if (!shards.length) return [];
    if (!takeOver?.owners.length) return this.claimOn(this.db, owner, shards, []);
    return this.db.transaction(async (tx) => {
      const locked = await tx.query<{ owner: string }>(
        `select o as owner from unnest(?::text[]) o where pg_try_advisory_xact_lock_shared(${PRESENCE_LOCK_CLASS}, hashtext(o))`,
        [takeOver.owners],
      );
      const gone = locked.length ? await takeOver.stillGone(locked.map((r) => r.owner)) : [];
      return this.claimOn(tx, owner, shards, gone);
    });
  }

  private async claimOn(db: SqlExecutor, owner: string, shards: number[], gone: string[]): Promise<Lease[]> {
    const present = this.present(owner);
    const rows = await db.query<LeaseRow>(
      `with free as (
         select shard from shard_leases
         where shard = any(?::int[]) and (owner is null or owner = ? or expires_at < now() or owner = any(?::text[]))
         order by shard
         for update
       )
       update shard_leases l set owner = ?, epoch = l.epoch + 1, expires_at = now() + ?::int * interval '1 millisecond'
       from free where l.shard = free.shard and ${present.sql}
       returning l.shard, l.epoch`,
      [shards, owner, gone, owner, this.ttlMs, ...present.params],
    );
    return rows.map(toLease);
  }

  /** Up to `limit` shards `owner` holds a live lease on, picked at random (a liveness probe's sample). */
  async someShardsOf(owner: string, limit: number): Promise<number[]> {
    const rows = await this.db.query<{ shard: number }>(
      'select shard from shard_leases where owner = ? and expires_at > now() order by random() limit ?',
      [owner, limit],
    );
    return rows.map((r) => Number(r.shard));
  }

  /**
   * Owners of live leases other than `owner` whose presence lock nobody holds: gone from PostgreSQL
   * (killed, or cut off from it). Not proof enough to take their leases: see `claim`.
   */
  async ownersWithoutPresence(owner: string): Promise<string[]> {
    const rows = await this.db.query<{ owner: string }>(
      `select o.owner from (select distinct owner from shard_leases
         where owner is not null and owner <> ? and expires_at > now()) o
       where not ${presenceHeldSql('o.owner')}`,
      [owner],
    );
    return rows.map((r) => r.owner);
  }

  /**
   * Extends the leases still ours at their epochs; resolves with the shards whose lease was not
   * (normally none), as one string rather than a row each. Runs every 3 s over every shard a node
   * holds, `RENEW_CHUNK` leases per statement: the two arrays go as literals built once per list,
   * bound beside the statement.
   */
  async renew(owner: string, leases: readonly Lease[]): Promise<number[]> {
    const lost: number[] = [];
    for (const [shards, epochs] of renewalLiterals(leases)) {
      const present = this.present(owner);
      const rows = await this.db.bound<{ lost: string | null; present: boolean }>(
        `with me as (
           select ${present.sql} as present
         ), held as (
           select * from unnest(?::int[], ?::bigint[]) as h(shard, epoch)
         ), renewed as (
           update shard_leases l set expires_at = now() + ?::int * interval '1 millisecond'
           from held h
           where l.shard = h.shard and l.epoch = h.epoch and l.owner = ?::text and l.expires_at > now()
             and (select present from me)
           returning l.shard
         )
         select (select present from me) as present,
           (select string_agg(shard::text, ',') from held where shard not in (select shard from renewed)) as lost`,
        [...present.params, shards, epochs, this.ttlMs, owner],
      );
      // The presence session went away meanwhile: not a lost lease, a failed renewal (retried).
      if (rows[0] && !rows[0].present) throw new PresenceLostError();
      const chunkLost = rows[0]?.lost;
      if (chunkLost) lost.push(...chunkLost.split(',').map(Number));
    }
    return lost;
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

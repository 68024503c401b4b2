import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { Knex, knex } from '@mikro-orm/knex';
import { namedStatement } from './pg-direct';
// pg's own serializer turns a JS array into one PostgreSQL array literal, with correct escaping.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

/** Knex would splice an array binding into a list; bind it as one array literal instead. */
const bindable = (params: unknown[]) => params.map((p) => (Array.isArray(p) ? prepareValue(p) : p));

/** A statement through knex with its parameters bound beside it (pg's extended protocol). */
async function boundRows<T>(db: Knex, trx: Knex.Transaction | undefined, sql: string, params: unknown[]): Promise<T[]> {
  const query = db.raw(sql, bindable(params) as Knex.RawBinding[]);
  if (trx) query.transacting(trx);
  return ((await query) as { rows: T[] }).rows;
}

/**
 * Plain SQL for the hot paths (leases, group-committed snapshots) that an ORM unit of work would
 * slow down. Placeholders are `?`; cast arrays explicitly (`any(?::int[])`).
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * `query` with the parameters sent beside the statement (pg's extended protocol) instead of
   * spliced into it: for statements that run all the time with large parameters (lease renewal's
   * 4096-element arrays), where MikroORM's escaping of every character cost more than the
   * statement. Types come from the statement, so cast every parameter (`?::int[]`, `?::text`).
   */
  bound<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * A named prepared statement (`$1` placeholders): parsed and planned once per connection, then only
   * bound and run. Outside `transaction` in a transaction of its own (the one-statement group commit),
   * inside it on the transaction's connection (the relay's claim). For statements whose plan does not
   * hang on statistics: PostgreSQL may keep one generic plan per connection until the next ANALYZE.
   */
  prepared<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]>;
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/** A SqlExecutor on MikroORM's pool: the embedded database's single connection is shared, not doubled. */
export class MikroSqlExecutor implements SqlExecutor {
  constructor(
    private readonly connection: PostgreSqlConnection,
    private readonly trx?: Knex.Transaction,
  ) {}

  static of(orm: MikroORM): MikroSqlExecutor {
    return new MikroSqlExecutor(orm.em.getConnection() as PostgreSqlConnection);
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.connection.execute<T[]>(sql, bindable(params), 'all', this.trx);
  }

  async bound<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return boundRows<T>(this.connection.getKnex(), this.trx, sql, params);
  }

  prepared<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]> {
    // A knex transaction's client hands out the transaction's own connection.
    return namedStatement<T>(this.trx ?? this.connection.getKnex(), name, text, values);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.trx) return work(this);
    return this.connection.transactional((trx) => work(new MikroSqlExecutor(this.connection, trx)));
  }
}

/**
 * A SqlExecutor on a small pool of its own, for work that must never queue behind the application's
 * statements: the lease renewal (a node whose renewal waited seconds in the shared pool of 10 under
 * load lost every shard). Parameters are always bound beside the statement, as `bound` does.
 */
export class DedicatedSqlExecutor implements SqlExecutor {
  private constructor(
    private readonly db: Knex,
    private readonly trx?: Knex.Transaction,
  ) {}

  static open(url: string, connections: number, acquireTimeoutMs: number): DedicatedSqlExecutor {
    return new DedicatedSqlExecutor(
      knex({
        client: 'pg',
        connection: url,
        pool: { min: 0, max: connections },
        acquireConnectionTimeout: acquireTimeoutMs,
      }),
    );
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.bound<T>(sql, params);
  }

  async bound<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return boundRows<T>(this.db, this.trx, sql, params);
  }

  prepared<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]> {
    return namedStatement<T>(this.trx ?? this.db, name, text, values);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.trx) return work(this);
    return this.db.transaction((trx) => work(new DedicatedSqlExecutor(this.db, trx)));
  }

  async close(): Promise<void> {
    if (!this.trx) await this.db.destroy();
  }
}

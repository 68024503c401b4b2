import { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';

interface PgClient {
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}
interface KnexPoolClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

/**
 * The hottest reads straight through the pg driver, on a connection of MikroORM's own pool (no
 * second pool): a named prepared statement (`$1` placeholders), no query builder, no binding
 * rewrite. For a handful of fixed queries on the request path; everything else uses SqlExecutor.
 */
export class PgDirect {
  constructor(private readonly knex: Knex) {}

  static of(orm: MikroORM): PgDirect {
    return new PgDirect((orm.em.getConnection() as PostgreSqlConnection).getKnex());
  }

  /** `name` identifies the prepared statement: one name per distinct `text`. */
  query<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    return namedStatement<T>(this.knex, name, text, values);
  }
}

/**
 * One named prepared statement on a connection of `knex`'s pool, in a transaction of its own
 * (autocommit): parsed once per connection, then only bound and executed.
 */
export async function namedStatement<T>(knex: Knex, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = knex.client as unknown as KnexPoolClient;
  const connection = await pool.acquireConnection();
  try {
    return (await connection.query<T>({ name, text, values })).rows;
  } finally {
    void pool.releaseConnection(connection);
  }
}

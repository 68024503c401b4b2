import { Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { MIGRATIONS } from './migrations';
import { StatementOnlyPostgreSqlDriver } from './statement-only-errors';

export interface DatabaseTarget {
  url: string;
  /** PGlite behind a socket: a single session, so a pool of one. */
  embedded: boolean;
}

export const POOL_WAIT_MS = 10_000;

export function ormOptions(
  target: DatabaseTarget,
  extra: Partial<Options<PostgreSqlDriver>> = {},
): Options<PostgreSqlDriver> {
  return {
    // Errors (and so log lines) carry the statement with placeholders, never the values.
    driver: StatementOnlyPostgreSqlDriver,
    clientUrl: target.url,
    pool: target.embedded ? { min: 1, max: 1 } : { min: 0, max: 10 },
    // How long a query waits for a pooled connection (knex's default is 60 s): past it the api answers
    // 503 with Retry-After and an actor command is retried, instead of a request hanging for a minute.
    driverOptions: { acquireConnectionTimeout: POOL_WAIT_MS },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    migrations: {
      migrationsList: MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      tableName: 'schema_migrations',
    },
    debug: false,
    ...extra,
  };
}

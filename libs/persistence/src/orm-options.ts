import { Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { MIGRATIONS } from './migrations';

export interface DatabaseTarget {
  url: string;
  /** PGlite behind a socket: a single session, so a pool of one. */
  embedded: boolean;
}

export function ormOptions(
  target: DatabaseTarget,
  extra: Partial<Options<PostgreSqlDriver>> = {},
): Options<PostgreSqlDriver> {
  return {
    driver: PostgreSqlDriver,
    clientUrl: target.url,
    pool: target.embedded ? { min: 1, max: 1 } : { min: 0, max: 10 },
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

import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { Client } from 'pg';
import { DatabaseTarget } from './orm-options';

/** An arbitrary constant: the advisory lock every process takes before migrating. */
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Applies pending migrations. Against a shared PostgreSQL, several processes may start at once, so
 * they serialize on a session advisory lock held on a separate connection.
 */
export async function runMigrations(orm: MikroORM, target: DatabaseTarget): Promise<string[]> {
  const migrator = orm.getMigrator<Migrator>();
  if (target.embedded) return (await migrator.up()).map((m) => m.name);
  const lock = new Client({ connectionString: target.url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return (await migrator.up()).map((m) => m.name);
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}

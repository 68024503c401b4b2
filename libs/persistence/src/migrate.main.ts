import { loadConfigOrExit } from '@app/config';
import { MikroORM } from '@mikro-orm/core';
import { runMigrations } from './migrate';
import { ormOptions } from './orm-options';

/** `npm run migrate`: applies pending migrations to DATABASE_URL (the Kubernetes migration Job). */
async function main(): Promise<void> {
  const config = loadConfigOrExit('tool');
  if (!config.databaseUrl) {
    process.stderr.write('Invalid configuration: DATABASE_URL is required to run migrations\n');
    process.exit(78);
  }
  const target = { url: config.databaseUrl, embedded: false };
  const orm = await MikroORM.init(ormOptions(target));
  try {
    const applied = await runMigrations(orm, target);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Schema is up to date\n');
  } finally {
    await orm.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

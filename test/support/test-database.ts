import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

/** The PostgreSQL the tests use; each test file gets a database of its own on it. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  url: string;
  name: string;
  /** Runs SQL as an administrator on the server (outside the test database). */
  admin(sql: string): Promise<void>;
  drop(): Promise<void>;
}

async function onServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database, migrated unless `empty` (copied from a template migrated once per set of
 * migrations: a copy takes ~80 ms where migrating takes 0.4-0.6 s, and the suite makes over a
 * hundred); `drop()` removes it even while connections are open.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = options.empty ? '' : ` template ${await migratedTemplate()}`;
  await onServer((c) => c.query(`create database ${name}${template}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin: (sql) => onServer(async (c) => void (await c.query(sql))),
    drop: () => onServer(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

const MIGRATIONS_DIR = join(__dirname, '../../libs/persistence/src/migrations');
/** Any constant: the lock test processes take to build the template one at a time. */
const TEMPLATE_LOCK_KEY = 727_002;
let template: Promise<string> | undefined;
/** Templates of other migration sets left in place (the newest ones). */
const KEPT_TEMPLATES = 4;

/**
 * The name of a database holding every migration, built by `npm run migrate`'s code (from dist/,
 * which the e2e suite builds first) when no test process built it yet. Its name carries a hash
 * of the migrations' sources, so a changed migration builds a new one (all but the newest few older ones are dropped).
 */
function migratedTemplate(): Promise<string> {
  template ??= buildTemplate().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

async function buildTemplate(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort())
    hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)));
  const name = `tpl_${hash.digest('hex').slice(0, 16)}`;
  return onServer(async (c) => {
    await c.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const found = await c.query<{ datname: string }>(
        'select datname from pg_database where datname like $1 order by oid desc',
        ['tpl\\_%'],
      );
      if (found.rows.some((r) => r.datname === name)) return name;
      // Older sets go, but not the newest few: another checkout on this server (a CI clone beside a
      // working tree) may be copying its own template right now.
      for (const { datname } of found.rows.slice(KEPT_TEMPLATES)) {
        await c.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
      }
      const building = `${name}_building`;
      // Left by a build that failed (a migration error, dist not built): held by nobody, since we hold the lock.
      await c.query(`drop database if exists ${building} with (force)`);
      await c.query(`create database ${building}`);
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${building}`;
      const migrate = join(__dirname, '../../dist/libs/persistence/src/migrate.main.js');
      await promisify(execFile)(process.execPath, [migrate], { env: { ...process.env, DATABASE_URL: url.toString() } });
      // Renamed once complete: a template is never seen half-migrated.
      await c.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await c.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
}

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { built } from './paths';
import { startScript } from './processes';
import { BenchEnv } from './types';

/*
 * The same as test/support's createTestDatabase() and uniqueSubjectPrefix(). `npm run build`
 * compiles apps, libs, test/fixtures and bench but not test/support (jest runs it from source),
 * so the compiled benchmarks cannot import it.
 */

export const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function onServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database; `drop()` removes it even while connections are open. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `bench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onServer((c) => c.query(`create database ${name}`));
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => onServer(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

/** A namespace of its own on the shared NATS. */
export function uniqueSubjectPrefix(): string {
  return `b${randomBytes(5).toString('hex')}`;
}

/** `npm run migrate` (the built one) on the benchmark's database. */
export async function migrateDatabase(env: BenchEnv): Promise<void> {
  const proc = startScript('migrate', built('libs/persistence/src/migrate.main'), { DATABASE_URL: env.databaseUrl });
  await proc.exited;
  if (proc.child.exitCode !== 0) throw new Error(`Migrations failed: ${proc.output()}`);
}

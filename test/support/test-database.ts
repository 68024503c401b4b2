import { randomBytes } from 'node:crypto';
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

/** A fresh, empty database; `drop()` removes it even while connections are open. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onServer((c) => c.query(`create database ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin: (sql) => onServer(async (c) => void (await c.query(sql))),
    drop: () => onServer(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

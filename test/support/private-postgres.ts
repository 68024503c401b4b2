import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-ports';

const run = promisify(execFile);

/** Debian's server binaries, newest version installed (override with PG_BIN_DIR). */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const dir = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(`${d}/pg_ctl`));
  if (!dir) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
  return dir;
}

export interface PrivatePostgres {
  /** URL of the database `test` on it. */
  url: string;
  /** `pg_ctl stop -m immediate`: a crash, WAL recovery on the next start. */
  crash(): Promise<void>;
  start(): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of a test's own (initdb + pg_ctl in a temp dir, on a free loopback port),
 * so the test may crash and restart it. The server refuses to run as root: as root, the binaries
 * run as the `postgres` user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', `${bin}/${tool}`, ...args]) : run(`${bin}/${tool}`, args);
  const data = join(dir, 'data');
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  };
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const query = async <T>(sql: string, params: unknown[] = [], db = 'test'): Promise<T[]> => {
    const client = new Client({ connectionString: url(db) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  await start();
  await query('create database test', [], 'postgres');
  return {
    url: url('test'),
    crash: async () => void (await pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])),
    start,
    query,
    destroy: async () => {
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

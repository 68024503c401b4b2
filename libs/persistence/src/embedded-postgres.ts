import { type Extension, PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The package's `contrib/*` export resolves at run time but not under this tsconfig's moduleResolution.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

export interface EmbeddedPostgres {
  /** A postgres:// URL of the wire-protocol socket in front of PGlite. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite on `dataDir/pg` behind a loopback socket so the ordinary driver serves both modes.
 * PGlite is one session: callers must use a pool of exactly one connection.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const root = resolve(dataDir);
  mkdirSync(root, { recursive: true });
  const releaseLock = lockDataDir(root);
  try {
    // pg_trgm: the console's hostname substring search (its index is created by a migration).
    const db = await PGlite.create({ dataDir: join(root, 'pg'), extensions: { pg_trgm } });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
    await server.start();
    const url = `postgres://postgres@${server.getServerConn()}/postgres`;
    return {
      url,
      stop: async () => {
        await server.stop();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** Two processes on one PGlite directory would corrupt it: refuse while a live process holds it. */
function lockDataDir(root: string): () => void {
  const lockFile = join(root, 'embedded.pid');
  try {
    const holder = Number(readFileSync(lockFile, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`DATA_DIR ${root} is in use by process ${holder}; stop it or choose another DATA_DIR`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/**
 * The advisory-lock class of node presence (`pg_advisory_lock(class, hashtext(node id))`), apart
 * from any other advisory lock of the database.
 */
export const PRESENCE_LOCK_CLASS = 1_634_890_866;

/** Whether `node` has a session holding its presence lock right now (pg_locks is live, not MVCC). */
export const presenceHeldSql = (node: string, pid?: string) =>
  `exists (select 1 from pg_locks where locktype = 'advisory' and granted and mode = 'ExclusiveLock'
     and database = (select oid from pg_database where datname = current_database())
     and classid = ${PRESENCE_LOCK_CLASS} and objsubid = 2
     and objid = (hashtext(${node})::bigint & 4294967295)::oid${pid ? ` and pid = ${pid}` : ''})`;

/** The session of this node that holds its presence lock, if it holds it now. */
export interface PresenceSource {
  pid(): number | undefined;
}

/** A claim or renewal was asked while this node's presence session is not there. */
export class PresenceLostError extends Error {
  constructor() {
    super('This node does not hold its presence lock in PostgreSQL (reconnecting)');
    this.name = 'PresenceLostError';
  }
}

const RETRY_MS = 250;

/**
 * Node presence in PostgreSQL: one session of this node holds an exclusive advisory lock named by
 * its id for the life of the process. The kernel closes a killed process's sockets, PostgreSQL ends
 * the session and the lock is free within milliseconds; a paused process (SIGSTOP, a long GC) keeps
 * its session and its lock. A node renews and claims leases only while it holds the lock, and
 * another node takes over its leases early only while holding the same lock itself (shared) and
 * seeing the node gone from NATS too (LeaseRepository.claim).
 */
export class PgPresence implements PresenceSource {
  private readonly logger = new Logger(PgPresence.name);
  private client?: Client;
  private backendPid?: number;
  private closed = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly nodeId: string,
  ) {}

  pid(): number | undefined {
    return this.backendPid;
  }

  /** Resolves once the lock is held. Another live process with this node id holds it: wait for it. */
  async start(): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      if (await this.acquire()) return;
      if (attempt % 40 === 1)
        this.logger.warn(`Waiting for the presence lock of ${this.nodeId}: another process with this NODE_ID holds it`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.backendPid = undefined;
    await this.client?.end().catch(() => undefined);
  }

  private async acquire(): Promise<boolean> {
    const client = new Client({
      connectionString: this.url,
      application_name: `presence:${this.nodeId}`,
      keepAlive: true,
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const { rows } = await client.query<{ held: boolean; pid: number }>(
        'select pg_try_advisory_lock($1, hashtext($2)) as held, pg_backend_pid() as pid',
        [PRESENCE_LOCK_CLASS, this.nodeId],
      );
      if (!rows[0].held || this.closed) {
        await client.end();
        return false;
      }
      this.client = client;
      this.backendPid = rows[0].pid;
      return true;
    } catch (err) {
      this.logger.warn({ err }, 'Taking the presence lock failed; retrying');
      await client.end().catch(() => undefined);
      return false;
    }
  }

  /** The session ended (PostgreSQL restarted, the connection broke): take the lock again. */
  private lost(client: Client): void {
    if (client !== this.client || this.closed) return;
    this.client = undefined;
    this.backendPid = undefined;
    this.logger.warn('Presence session lost; taking the lock again');
    void client.end().catch(() => undefined);
    this.retry = setTimeout(() => void this.start(), RETRY_MS);
  }
}

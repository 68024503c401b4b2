import { SecretBox } from '@app/crypto';
import { isTransientDatabaseError } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable, Logger } from '@nestjs/common';

export interface IdempotencyScope {
  workspaceId: string;
  method: string;
  path: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type Claim =
  /** `claimedAt` tells this claim from a later one on the same key (the release deletes only its own). */
  | { kind: 'claimed'; claimedAt: string }
  | { kind: 'in_progress' }
  | { kind: 'reused' }
  | { kind: 'done'; response: StoredResponse };

/** A request whose worker died is taken over after this long. */
const STALE_IN_PROGRESS_SECONDS = 120;
/** A release that meets a database outage keeps trying this long, this often. */
const RELEASE_RETRY_MS = 60_000;
const RELEASE_RETRY_EVERY_MS = 500;

/**
 * Idempotency records in PostgreSQL (24 h), shared by every API replica. Stored bodies are sealed with
 * ENCRYPTION_KEY: a first response can hold a secret shown once (a webhook signing secret) or a
 * registrant's address, and a database dump must not reveal them.
 */
@Injectable()
export class IdempotencyStore {
  private readonly logger = new Logger(IdempotencyStore.name);

  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly box: SecretBox,
  ) {}

  async claim(scope: IdempotencyScope, fingerprint: string): Promise<Claim> {
    const key = [scope.workspaceId, scope.method, scope.path, scope.key];
    // Expired records, and in-progress ones whose worker died, no longer hold the key.
    await this.db.query(
      `delete from idempotency_records where workspace_id = ? and method = ? and path = ? and key = ?
       and (expires_at < now() or (status = 'in_progress' and created_at < now() - ? * interval '1 second'))`,
      [...key, STALE_IN_PROGRESS_SECONDS],
    );
    const inserted = await this.db.query<{ claimed_at: string }>(
      `insert into idempotency_records (workspace_id, method, path, key, fingerprint, status, expires_at)
       values (?, ?, ?, ?, ?, 'in_progress', now() + interval '24 hours') on conflict do nothing returning created_at::text as claimed_at`,
      [...key, fingerprint],
    );
    if (inserted.length) return { kind: 'claimed', claimedAt: inserted[0].claimed_at };
    const rows = await this.db.query<{
      fingerprint: string;
      status: string;
      response_status: number;
      response_body: unknown;
      response_headers: Record<string, string>;
    }>(
      `select fingerprint, status, response_status, response_body, response_headers from idempotency_records
       where workspace_id = ? and method = ? and path = ? and key = ?`,
      key,
    );
    const row = rows[0];
    if (!row) return this.claim(scope, fingerprint);
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.status === 'in_progress') return { kind: 'in_progress' };
    return {
      kind: 'done',
      response: {
        status: row.response_status,
        body: this.openBody(row.response_body),
        headers: row.response_headers ?? {},
      },
    };
  }

  async complete(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
    await this.db.query(
      `update idempotency_records set status = 'done', response_status = ?, response_body = ?::jsonb, response_headers = ?::jsonb
       where workspace_id = ? and method = ? and path = ? and key = ?`,
      [
        response.status,
        JSON.stringify({ sealed: this.box.seal(JSON.stringify(response.body ?? null)) }),
        JSON.stringify(response.headers),
        scope.workspaceId,
        scope.method,
        scope.path,
        scope.key,
      ],
    );
  }

  /**
   * Frees the key of a request that failed, for the client's retry. When the database is away (often
   * the outage that failed the request) it keeps trying in the background: otherwise every retry
   * would meet 409 idempotency_in_progress until the stale-claim takeover, two minutes later.
   */
  async release(scope: IdempotencyScope, claimedAt: string): Promise<void> {
    try {
      await this.deleteClaim(scope, claimedAt);
    } catch (error) {
      if (!isTransientDatabaseError(error)) throw error;
      this.releaseLater(scope, claimedAt, Date.now() + RELEASE_RETRY_MS);
    }
  }

  private releaseLater(scope: IdempotencyScope, claimedAt: string, deadline: number): void {
    setTimeout(() => {
      this.deleteClaim(scope, claimedAt).catch((error: unknown) => {
        if (isTransientDatabaseError(error) && Date.now() < deadline)
          return this.releaseLater(scope, claimedAt, deadline);
        this.logger.warn({ key: scope.key, err: error }, 'Could not release an idempotency key; it frees itself later');
      });
    }, RELEASE_RETRY_EVERY_MS).unref();
  }

  /** Only this claim: a delete that did commit before its answer was lost must not free a retry's claim. */
  private async deleteClaim(scope: IdempotencyScope, claimedAt: string): Promise<void> {
    await this.db.query(
      `delete from idempotency_records where workspace_id = ? and method = ? and path = ? and key = ?
       and status = 'in_progress' and created_at = ?::timestamptz`,
      [scope.workspaceId, scope.method, scope.path, scope.key, claimedAt],
    );
  }

  private openBody(stored: unknown): unknown {
    const sealed = (stored as { sealed?: unknown } | null)?.sealed;
    return typeof sealed === 'string' ? JSON.parse(this.box.open(sealed)) : stored;
  }
}

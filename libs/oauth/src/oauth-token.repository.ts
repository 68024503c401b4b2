import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface OAuthTokenRecord {
  id: string;
  clientId: string;
  workspaceId: string;
  scopes: string[];
  issuedAtMs: number;
  expiresAtMs: number;
  /** Revoked, or its client is. */
  revoked: boolean;
}

/** Access tokens, found by the hash of the token (the token itself is never stored). */
@Injectable()
export class OAuthTokenRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async insert(t: Omit<OAuthTokenRecord, 'revoked'> & { tokenHash: string }): Promise<void> {
    await this.db.query(
      `insert into oauth_tokens (id, token_hash, client_id, workspace_id, scopes, created_at, expires_at)
       values (?, ?, ?, ?, ?::text[], to_timestamp(? / 1000.0), to_timestamp(? / 1000.0))`,
      [t.id, t.tokenHash, t.clientId, t.workspaceId, t.scopes, t.issuedAtMs, t.expiresAtMs],
    );
  }

  async findByHash(tokenHash: string): Promise<OAuthTokenRecord | undefined> {
    const rows = await this.db.query<OAuthTokenRecord>(
      `select t.id, t.client_id as "clientId", t.workspace_id as "workspaceId", t.scopes,
         (extract(epoch from t.created_at) * 1000)::float8 as "issuedAtMs",
         (extract(epoch from t.expires_at) * 1000)::float8 as "expiresAtMs",
         (t.revoked_at is not null or c.revoked_at is not null) as revoked
       from oauth_tokens t join oauth_clients c on c.id = t.client_id where t.token_hash = ?`,
      [tokenHash],
    );
    const row = rows[0];
    return row && { ...row, issuedAtMs: Number(row.issuedAtMs), expiresAtMs: Number(row.expiresAtMs) };
  }

  async revoke(id: string): Promise<void> {
    await this.db.query('update oauth_tokens set revoked_at = coalesce(revoked_at, now()) where id = ?', [id]);
  }

  /** Tokens long expired are no use even to introspection; keeps the table small. */
  async purgeExpired(beforeMs: number): Promise<void> {
    await this.db.query('delete from oauth_tokens where expires_at < to_timestamp(? / 1000.0)', [beforeMs]);
  }
}

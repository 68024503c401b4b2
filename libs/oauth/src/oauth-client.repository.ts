import { notFound } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface OAuthClientRecord {
  id: string;
  workspaceId: string;
  name: string;
  secretHash: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

const COLUMNS = `id, workspace_id as "workspaceId", name, secret_hash as "secretHash", scopes,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
  to_char(revoked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "revokedAt"`;

/** OAuth clients; the secret is kept as a hash only. */
@Injectable()
export class OAuthClientRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async insert(c: Pick<OAuthClientRecord, 'id' | 'workspaceId' | 'name' | 'secretHash' | 'scopes'>) {
    const rows = await this.db.query<OAuthClientRecord>(
      `insert into oauth_clients (id, workspace_id, name, secret_hash, scopes) values (?, ?, ?, ?, ?::text[])
       returning ${COLUMNS}`,
      [c.id, c.workspaceId, c.name, c.secretHash, c.scopes],
    );
    return rows[0];
  }

  async find(id: string): Promise<OAuthClientRecord | undefined> {
    return (await this.db.query<OAuthClientRecord>(`select ${COLUMNS} from oauth_clients where id = ?`, [id]))[0];
  }

  async list(workspaceId: string): Promise<OAuthClientRecord[]> {
    return this.db.query<OAuthClientRecord>(
      `select ${COLUMNS} from oauth_clients where workspace_id = ? order by created_at, id`,
      [workspaceId],
    );
  }

  /** Revokes the client and every token it holds, in one transaction. */
  async revoke(workspaceId: string, id: string): Promise<OAuthClientRecord> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<OAuthClientRecord>(
        `update oauth_clients set revoked_at = coalesce(revoked_at, now()) where id = ? and workspace_id = ?
         returning ${COLUMNS}`,
        [id, workspaceId],
      );
      if (!rows[0]) throw notFound('OAuth client');
      await tx.query('update oauth_tokens set revoked_at = now() where client_id = ? and revoked_at is null', [id]);
      return rows[0];
    });
  }
}

import { PgDirect } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface LiveKeyRow {
  id: string;
  workspace_id: string;
  key_hash: string;
}

/**
 * The per-request key lookups, as named prepared statements on the driver (PgDirect): a request
 * whose key is not cached pays one round trip, and the background recheck one per 1,000 keys.
 */
@Injectable()
export class ApiKeyHotReads {
  constructor(private readonly pg: PgDirect) {}

  async live(keyHash: string): Promise<LiveKeyRow | undefined> {
    const [row] = await this.pg.query<LiveKeyRow>(
      'api_keys.live',
      'select id, workspace_id, key_hash from api_keys where key_hash = $1 and revoked_at is null',
      [keyHash],
    );
    return row;
  }

  /** Which of these hashes still belong to unrevoked keys. */
  async stillLive(keyHashes: string[]): Promise<Set<string>> {
    const rows = await this.pg.query<{ key_hash: string }>(
      'api_keys.recheck',
      'select key_hash from api_keys where key_hash = any($1::text[]) and revoked_at is null',
      [keyHashes],
    );
    return new Set(rows.map((r) => r.key_hash));
  }
}

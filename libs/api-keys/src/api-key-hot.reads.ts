import { PgDirect } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface LiveKeyRow {
  id: string;
  workspace_id: string;
  key_hash: string;
  name: string | null;
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
      'select id, workspace_id, key_hash, name from api_keys where key_hash = $1 and revoked_at is null',
      [keyHash],
    );
    return row;
  }

  /**
   * Which of these hashes still belong to unrevoked keys; in the same statement each live key's
   * `last_used_at` moves to the minute of its last use here (`usedAt`, same order), written only
   * when that minute is later than the stored one: at most one write per key per minute, and none
   * per request.
   */
  async stillLive(keyHashes: string[], usedAt: Date[]): Promise<Set<string>> {
    const rows = await this.pg.query<{ key_hash: string }>(
      'api_keys.recheck_and_touch',
      `with asked as (
         select a.key_hash, date_trunc('minute', a.used_at) as used_minute
         from unnest($1::text[], $2::timestamptz[]) as a(key_hash, used_at)
       ), live as (
         select k.id, k.key_hash, a.used_minute
         from api_keys k join asked a on a.key_hash = k.key_hash
         where k.revoked_at is null
       ), touched as (
         update api_keys k set last_used_at = l.used_minute
         from live l
         where k.id = l.id and (k.last_used_at is null or k.last_used_at < l.used_minute)
         returning k.id
       )
       select key_hash from live`,
      [keyHashes, usedAt],
    );
    return new Set(rows.map((r) => r.key_hash));
  }
}

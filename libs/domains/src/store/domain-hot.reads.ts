import { PgDirect } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { DomainRecord } from '../model/domain.record';

/**
 * Reads on the request's hot path (`GET /v1/domains/{id}` on a cache miss): a named prepared
 * statement on the direct pool, raw on purpose; every other read goes through DomainRepository.
 */
@Injectable()
export class DomainHotReads {
  constructor(private readonly pg: PgDirect) {}

  async stateOf(workspaceId: string, id: string): Promise<DomainRecord | undefined> {
    const rows = await this.pg.query<{ state: DomainRecord }>(
      'domains.get',
      'select state from domains where id = $1 and workspace_id = $2 and deleted_at is null',
      [id, workspaceId],
    );
    return rows[0]?.state;
  }
}

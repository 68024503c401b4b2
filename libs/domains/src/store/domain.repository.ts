import { MikroSqlExecutor, batchedReads } from '@app/persistence';
import { afterCursor, encodeCursor } from '@app/http';
import { notFound } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { DomainRecord } from '../model/domain.record';

export interface DomainListQuery {
  hostname?: string;
  status?: string;
  projectId?: string;
  /** The console's filters: hostnames containing this text (a trigram index), and the monitor's verdict. */
  hostnameContains?: string;
  monitorStatus?: string;
  cursor?: string;
  limit: number;
}

interface Row {
  state: DomainRecord;
  id: string;
}

/** Reads of live domains; every query is scoped by the workspace it is given. */
@Injectable()
export class DomainRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  /**
   * The hostname checks of creations running at once go as one statement (`batchedReads`: each
   * check reads the table as it is now). The unique index still decides a race.
   */
  private readonly takenHostnames = batchedReads(async (hostnames: readonly string[]) => {
    const rows = await this.db.query<{ hostname: string }>(
      'select hostname from domains where hostname = any(?::text[]) and deleted_at is null and released_at is null',
      [hostnames],
    );
    const taken = new Set(rows.map((r) => r.hostname));
    return hostnames.map((hostname) => taken.has(hostname));
  });

  async get(workspaceId: string, id: string): Promise<DomainRecord> {
    const rows = await this.db.query<Row>(
      'select state from domains where id = ? and workspace_id = ? and deleted_at is null',
      [id, workspaceId],
    );
    if (!rows[0]) throw notFound('Domain');
    return rows[0].state;
  }

  hostnameTaken(hostname: string): Promise<boolean> {
    return this.takenHostnames.load(hostname);
  }

  /** The live domain holding the hostname (not released to another workspace), if any. */
  async holderOf(hostname: string): Promise<{ id: string; workspaceId: string } | undefined> {
    const rows = await this.db.query<{ id: string; workspace_id: string }>(
      'select id, workspace_id from domains where hostname = ? and deleted_at is null and released_at is null',
      [hostname],
    );
    return rows[0] && { id: rows[0].id, workspaceId: rows[0].workspace_id };
  }

  async list(
    workspaceId: string,
    query: DomainListQuery,
  ): Promise<{ records: DomainRecord[]; nextCursor: string | null }> {
    const where = ['workspace_id = ?', 'deleted_at is null'];
    const params: unknown[] = [workspaceId];
    if (query.hostname !== undefined) {
      where.push('hostname = ?');
      params.push(query.hostname);
    }
    if (query.status) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.projectId !== undefined) {
      where.push('project_id = ?');
      params.push(query.projectId);
    }
    if (query.hostnameContains) {
      // lower(): the trigram index is on that expression (hostnames are stored lowercase).
      where.push("lower(hostname) like ? escape '\\'");
      params.push(`%${query.hostnameContains.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`);
    }
    if (query.monitorStatus) {
      where.push('monitor_status = ?');
      params.push(query.monitorStatus);
    }
    if (query.cursor && query.hostname === undefined) {
      const after = afterCursor(query.cursor);
      where.push(after.sql);
      params.push(...after.params);
    }
    const rows = await this.db.query<Row>(
      `select id, state from domains where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
      [...params, query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const more = rows.length > query.limit && query.hostname === undefined;
    return {
      records: page.map((r) => r.state),
      nextCursor: more && last ? encodeCursor({ createdAt: last.state.createdAt, id: last.id }) : null,
    };
  }
}

import { MikroSqlExecutor, batchedReads } from '@app/persistence';
import { afterCursor, encodeCursor } from '@app/http';
import { notFound } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { HostnameHold } from '../model/domain.effects';
import { DomainRecord } from '../model/domain.record';

interface HostnameAsk {
  hostname: string;
  workspaceId: string;
}

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
  private readonly takenHostnames = batchedReads(async (asks: readonly HostnameAsk[]) => {
    const rows = await this.db.query<{ hostname: string; workspace_id: string; guarded_until: string | null }>(
      `select hostname, workspace_id, guarded_until from domains where hostname = any(?::text[])
         and ((deleted_at is null and released_at is null) or guarded_until > now())`,
      [asks.map((a) => a.hostname)],
    );
    return asks.map(({ hostname, workspaceId }): HostnameHold => {
      const holds = rows.filter((r) => r.hostname === hostname);
      if (holds.some((r) => r.guarded_until === null)) return { held: 'connected' };
      // Its own workspace connects a guarded hostname again as it likes.
      const guard = holds.find((r) => r.workspace_id !== workspaceId);
      return guard ? { held: 'guarded', until: new Date(guard.guarded_until!).toISOString() } : { held: false };
    });
  });

  async get(workspaceId: string, id: string): Promise<DomainRecord> {
    const rows = await this.db.query<Row>(
      'select state from domains where id = ? and workspace_id = ? and deleted_at is null',
      [id, workspaceId],
    );
    if (!rows[0]) throw notFound('Domain');
    return rows[0].state;
  }

  hostnameTaken(hostname: string, workspaceId: string): Promise<HostnameHold> {
    return this.takenHostnames.load({ hostname, workspaceId });
  }

  /** The newest unexpired takeover guard on the hostname (a deleted domain's), if any. */
  async guardOf(hostname: string): Promise<{ id: string; workspaceId: string; until: Date } | undefined> {
    const rows = await this.db.query<{ id: string; workspace_id: string; guarded_until: string | Date }>(
      `select id, workspace_id, guarded_until from domains where hostname = ? and guarded_until > now()
        order by guarded_until desc limit 1`,
      [hostname],
    );
    return rows[0] && { id: rows[0].id, workspaceId: rows[0].workspace_id, until: new Date(rows[0].guarded_until) };
  }

  /** Another workspace proved control of a guarded hostname: every guard on it ends now (each record says when). */
  async releaseGuards(hostname: string): Promise<void> {
    await this.db.query(
      `update domains set guarded_until = null, version = version + 1,
         state = jsonb_set(state, '{takeoverGuard,releasedAt}', to_jsonb(now()))
        where hostname = ? and guarded_until is not null`,
      [hostname],
    );
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

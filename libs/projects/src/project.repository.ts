import { afterCursor, microsKey, page } from '@app/http';
import { DomainError, notFound } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { ProjectRecord } from './project.view';

const ID_PATTERN = /^prj_[0-9A-Za-z]{1,64}$/;
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const COLUMNS = `id, workspace_id as "workspaceId", name, description, metadata,
  ${iso('created_at')} as "createdAt", ${iso('updated_at')} as "updatedAt", ${microsKey('created_at')} as "createdAtKey"`;

export interface ProjectChanges {
  name?: string;
  description?: string | null;
  metadata?: Record<string, unknown>;
}

/** Projects; every query is scoped by the workspace it is given. */
@Injectable()
export class ProjectRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async insert(p: Pick<ProjectRecord, 'id' | 'workspaceId' | 'name' | 'description' | 'metadata'>) {
    const rows = await this.db.query<ProjectRecord>(
      `insert into projects (id, workspace_id, name, description, metadata) values (?, ?, ?, ?, ?::jsonb)
       returning ${COLUMNS}`,
      [p.id, p.workspaceId, p.name, p.description, JSON.stringify(p.metadata)],
    );
    return rows[0];
  }

  async get(workspaceId: string, id: string): Promise<ProjectRecord> {
    const rows = ID_PATTERN.test(id)
      ? await this.db.query<ProjectRecord>(`select ${COLUMNS} from projects where id = ? and workspace_id = ?`, [
          id,
          workspaceId,
        ])
      : [];
    if (!rows[0]) throw notFound('Project');
    return rows[0];
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    if (!ID_PATTERN.test(id)) return false;
    const rows = await this.db.query('select 1 from projects where id = ? and workspace_id = ?', [id, workspaceId]);
    return rows.length > 0;
  }

  async list(workspaceId: string, limit: number, cursor?: string) {
    const params: unknown[] = [workspaceId];
    let after = '';
    if (cursor) {
      const position = afterCursor(cursor);
      after = `and ${position.sql}`;
      params.push(...position.params);
    }
    const rows = await this.db.query<ProjectRecord>(
      `select ${COLUMNS} from projects where workspace_id = ? ${after} order by created_at desc, id desc limit ?`,
      [...params, limit + 1],
    );
    return page(rows, limit);
  }

  async update(workspaceId: string, id: string, changes: ProjectChanges): Promise<ProjectRecord> {
    await this.get(workspaceId, id);
    const rows = await this.db.query<ProjectRecord>(
      `update projects set name = coalesce(?, name),
         description = case when ? then ? else description end,
         metadata = coalesce(?::jsonb, metadata), updated_at = now()
       where id = ? and workspace_id = ? returning ${COLUMNS}`,
      [
        changes.name ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.metadata ? JSON.stringify(changes.metadata) : null,
        id,
        workspaceId,
      ],
    );
    if (!rows[0]) throw notFound('Project');
    return rows[0];
  }

  /**
   * Deletes the project unless a live domain still points at it (409: move or detach those first),
   * counting and deleting in one statement. A domain created in the same instant can still name the
   * project (its check ran before the delete); nothing else depends on the project, so that is cosmetic.
   */
  async remove(workspaceId: string, id: string): Promise<void> {
    await this.get(workspaceId, id);
    const rows = await this.db.query<{ deleted: boolean; domains: number }>(
      `with used as (select count(*)::int as n from domains where workspace_id = ? and project_id = ? and deleted_at is null),
       gone as (delete from projects where id = ? and workspace_id = ? and (select n from used) = 0 returning id)
       select exists (select 1 from gone) as deleted, (select n from used) as domains`,
      [workspaceId, id, id, workspaceId],
    );
    const result = rows[0];
    if (!result?.deleted && result?.domains) {
      throw new DomainError(
        'conflict',
        `Project ${id} still has ${result.domains} domain(s): move them to another project or detach them (PATCH projectId: null) first`,
        { projectId: id, domains: result.domains },
      );
    }
    if (!result?.deleted) throw notFound('Project');
  }
}

import { afterCursor, page } from '@app/http';
import { DomainError, notFound } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Project } from './project.entity';

const ID_PATTERN = /^prj_[0-9A-Za-z]{1,64}$/;

export interface ProjectChanges {
  name?: string;
  description?: string | null;
  metadata?: Record<string, unknown>;
}

/** Projects (a MikroORM entity); every query is scoped by the workspace it is given. */
@Injectable()
export class ProjectRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly db: MikroSqlExecutor,
  ) {}

  async create(
    workspaceId: string,
    name: string,
    description: string | null,
    metadata: Record<string, unknown>,
  ): Promise<Project> {
    const project = new Project(workspaceId, name, description, metadata);
    await this.em.persistAndFlush(project);
    // As stored: jsonb orders the metadata's keys its own way, and the answer shows them that way.
    return (await this.em.refresh(project)) ?? project;
  }

  async get(workspaceId: string, id: string): Promise<Project> {
    const project = ID_PATTERN.test(id) ? await this.em.findOne(Project, { id, workspaceId }) : null;
    if (!project) throw notFound('Project');
    return project;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return ID_PATTERN.test(id) && (await this.em.count(Project, { id, workspaceId })) > 0;
  }

  /** Newest first, keyset-paged on (created_at, id) at the database's microsecond precision. */
  async list(workspaceId: string, limit: number, cursor?: string) {
    const qb = this.em.createQueryBuilder(Project).select('*').where({ workspaceId });
    if (cursor) {
      const position = afterCursor(cursor);
      qb.andWhere(position.sql, position.params);
    }
    const rows = await qb
      .orderBy({ createdAt: 'desc', id: 'desc' })
      .limit(limit + 1)
      .getResultList();
    return page(rows, limit);
  }

  async update(workspaceId: string, id: string, changes: ProjectChanges): Promise<Project> {
    const project = await this.get(workspaceId, id);
    if (changes.name !== undefined) project.name = changes.name;
    if (changes.description !== undefined) project.description = changes.description;
    if (changes.metadata) project.metadata = changes.metadata;
    // Every PATCH touches updatedAt, even one that changes nothing.
    project.updatedAt = new Date();
    await this.em.flush();
    return (await this.em.refresh(project)) ?? project;
  }

  /**
   * Deletes the project unless a live domain still points at it (409: move or detach those first),
   * counting and deleting in one statement (raw on purpose, see raw-sql.ts). A domain created in the
   * same instant can still name the project (its check ran before the delete); nothing else depends
   * on the project, so that is cosmetic.
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

import { microsKey } from '@app/http';
import { Entity, Formula, PrimaryKey, Property } from '@mikro-orm/core';
import { newId } from '@app/persistence';

/** A workspace-scoped group that domains may belong to (`projects`). */
@Entity({ tableName: 'projects' })
export class Project {
  @PrimaryKey({ type: 'text' })
  id: string = newId('prj');

  @Property({ type: 'text' })
  workspaceId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', nullable: true })
  description: string | null;

  @Property({ type: 'json' })
  metadata: Record<string, unknown>;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Equal to createdAt at creation, as the database's now() made them before. */
  @Property({ type: 'datetime' })
  updatedAt: Date = this.createdAt;

  /**
   * created_at as the database's microsecond text, the keyset cursor's position (keyset-cursor.ts):
   * selected with every load; a new project has it once the repository refreshes it.
   */
  @Formula((table) => microsKey(`${table.alias}.created_at`), { type: 'text' })
  createdAtKey!: string;

  constructor(workspaceId: string, name: string, description: string | null, metadata: Record<string, unknown>) {
    this.workspaceId = workspaceId;
    this.name = name;
    this.description = description;
    this.metadata = metadata;
  }
}

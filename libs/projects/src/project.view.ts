/** A project as stored and as the API shows it. */
export interface ProjectRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  createdAtKey: string;
}

export interface ProjectView {
  id: string;
  name: string;
  description: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export function toProjectView(record: ProjectRecord): ProjectView {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

import { DomainError } from '@app/kernel';
import { ProjectRepository } from '@app/projects';
import { Injectable } from '@nestjs/common';

/** A domain may name only a project of its own workspace: anything else is a bad request (400), not a 404. */
@Injectable()
export class DomainProjectCheck {
  constructor(private readonly projects: ProjectRepository) {}

  async check(workspaceId: string, projectId: string | null | undefined): Promise<void> {
    if (typeof projectId !== 'string' || (await this.projects.exists(workspaceId, projectId))) return;
    throw new DomainError('bad_request', `projectId: no project ${projectId} in this workspace`, {
      field: 'projectId',
    });
  }
}

import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectRepository } from './project.repository';
import { ProjectView, toProjectView } from './project.view';

@Injectable()
export class Projects {
  constructor(private readonly projects: ProjectRepository) {}

  async create(workspaceId: string, dto: CreateProjectDto): Promise<{ project: ProjectView }> {
    const project = await this.projects.create(
      workspaceId,
      dto.name.trim(),
      dto.description ?? null,
      dto.metadata ?? {},
    );
    return { project: toProjectView(project) };
  }

  async update(workspaceId: string, id: string, dto: UpdateProjectDto): Promise<{ project: ProjectView }> {
    if (dto.name === undefined && dto.description === undefined && dto.metadata === undefined) {
      throw new DomainError('bad_request', 'Send at least one of name, description, metadata');
    }
    const name = dto.name?.trim();
    return { project: toProjectView(await this.projects.update(workspaceId, id, { ...dto, name })) };
  }

  async remove(workspaceId: string, id: string): Promise<{ deleted: true; id: string }> {
    await this.projects.remove(workspaceId, id);
    return { deleted: true, id };
  }
}

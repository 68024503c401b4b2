import { CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { PageQueryDto } from '@app/http';
import { Idempotent } from '@app/limits';
import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectRepository } from './project.repository';
import { toProjectView } from './project.view';
import { Projects } from './projects.usecase';

@Controller('v1/projects')
@ScopeResourceOf('projects')
export class ProjectsController {
  constructor(
    private readonly usecases: Projects,
    private readonly projects: ProjectRepository,
  ) {}

  @Post()
  @Idempotent()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateProjectDto) {
    return this.usecases.create(p.workspaceId, body);
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto) {
    const result = await this.projects.list(p.workspaceId, q.limit ?? 25, q.cursor);
    return { projects: result.rows.map(toProjectView), nextCursor: result.nextCursor };
  }

  @Get(':id')
  async get(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return { project: toProjectView(await this.projects.get(p.workspaceId, id)) };
  }

  @Patch(':id')
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateProjectDto) {
    return this.usecases.update(p.workspaceId, id, body);
  }

  @Delete(':id')
  remove(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.usecases.remove(p.workspaceId, id);
  }
}

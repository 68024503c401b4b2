import { Module } from '@nestjs/common';
import { ProjectRepository } from './project.repository';
import { ProjectsController } from './projects.controller';
import { Projects } from './projects.usecase';

/** /v1/projects: generic workspace-scoped groups that domains may belong to (api, standalone). */
@Module({
  controllers: [ProjectsController],
  providers: [ProjectRepository, Projects],
  exports: [ProjectRepository],
})
export class ProjectsModule {}

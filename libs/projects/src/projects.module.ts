import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { Project } from './project.entity';
import { ProjectRepository } from './project.repository';
import { ProjectsController } from './projects.controller';
import { Projects } from './projects.usecase';

/** /v1/projects: generic workspace-scoped groups that domains may belong to (api, standalone). */
@Module({
  imports: [MikroOrmModule.forFeature([Project])],
  controllers: [ProjectsController],
  providers: [ProjectRepository, Projects],
  exports: [ProjectRepository],
})
export class ProjectsModule {}

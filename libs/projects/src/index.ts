export { ProjectRepository } from './project.repository';
export { ProjectsModule } from './projects.module';
export { projectSchema } from './project.view';

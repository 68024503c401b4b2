export * from './project.entity';
export * from './project.view';
export * from './project.repository';
export * from './projects.module';

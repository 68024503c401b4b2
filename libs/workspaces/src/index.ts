export * from './workspace.entity';
export * from './workspace.repository';
export * from './workspaces.module';

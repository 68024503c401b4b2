export { toWorkspaceView, Workspace, type WorkspaceView, workspaceSchema } from './workspace.entity';
export { WorkspaceRepository } from './workspace.repository';
export { WorkspacesModule } from './workspaces.module';

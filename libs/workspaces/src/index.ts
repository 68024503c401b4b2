export { toWorkspaceView, Workspace, type WorkspaceView } from './workspace.entity';
export { WorkspaceRepository } from './workspace.repository';
export { WorkspacesModule } from './workspaces.module';

export { AdminModule } from './admin.module';
export { AdminUseCases, issuedKeySchema } from './admin.usecases';
export { ClusterAdminModule } from './cluster-admin.module';
export { CreateWorkspaceDto } from './dto/create-workspace.dto';

export { AdminModule } from './admin.module';
export { AdminUseCases } from './admin.usecases';
export { ClusterAdminModule } from './cluster-admin.module';

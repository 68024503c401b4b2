export * from './admin.module';
export * from './admin.usecases';
export { ClusterAdminModule } from './cluster-admin.module';

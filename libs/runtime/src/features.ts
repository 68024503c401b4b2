import { ActorClientModule, ActorNodeModule, ClusterAdminModule } from '@app/actors';
import { AdminModule } from '@app/admin';
import { AuthModule } from '@app/auth';
import { DomainsApiModule, DomainsNodeModule } from '@app/domains';
import { WorkspacesModule } from '@app/workspaces';
import { DynamicModule, Type } from '@nestjs/common';

type ModuleRef = Type<unknown> | DynamicModule;

/** The HTTP API: authentication, the admin API and the /v1 resources. */
export function apiFeatures(): ModuleRef[] {
  return [AuthModule, AdminModule, WorkspacesModule, ActorClientModule, ClusterAdminModule, DomainsApiModule];
}

/** The actor node: hosts the actors of the shards it owns. */
export function nodeFeatures(): ModuleRef[] {
  return [ActorNodeModule.forRoot(), DomainsNodeModule];
}

/** The edge: TLS termination and proxying (filled in by the edge issue). */
export function edgeFeatures(): ModuleRef[] {
  return [];
}

import { ActorClientModule, ActorNodeModule } from '@app/actors';
import { AdminModule, ClusterAdminModule } from '@app/admin';
import { ApiKeysModule } from '@app/api-keys';
import { AuthModule } from '@app/auth';
import { ConnectApiModule } from '@app/connect';
import { ConnectSessionsModule } from '@app/connect-sessions';
import { ConsoleModule } from '@app/console';
import { DnsApplyModule } from '@app/dns-apply';
import { DomainsApiModule, DomainsNodeModule } from '@app/domains';
import { EdgeModule, EdgeReplicaWriterModule } from '@app/edge';
import { LimitsModule } from '@app/limits';
import { OAuthModule } from '@app/oauth';
import { OpenApiModule } from '@app/openapi';
import { ProjectsModule } from '@app/projects';
import { PurchasesApiModule, PurchasesNodeModule } from '@app/purchases';
import { RecordChecksApiModule, ToolsApiModule } from '@app/tools';
import { WebhooksApiModule, WebhooksNodeModule } from '@app/webhooks';
import { WidgetModule } from '@app/widget';
import { WorkspacesModule } from '@app/workspaces';
import type { FeatureModule } from './runtime.module';

// What each process runs, by role: the api, node and edge apps each run one list, standalone all
// three. Here, not in the apps, so that no app imports another and tests wire the same lists.

/** What the api process runs (standalone too): authentication, the admin API and the /v1 resources. */
export function apiFeatures(): FeatureModule[] {
  return [
    AuthModule,
    ApiKeysModule,
    LimitsModule,
    AdminModule,
    WorkspacesModule,
    ActorClientModule,
    ClusterAdminModule,
    DomainsApiModule,
    WebhooksApiModule,
    OpenApiModule,
    OAuthModule,
    ProjectsModule,
    ToolsApiModule,
    RecordChecksApiModule,
    ConnectSessionsModule,
    DnsApplyModule,
    WidgetModule,
    ConnectApiModule,
    PurchasesApiModule,
    ConsoleModule,
  ];
}

/** What an actor node runs (standalone too): the actors of the shards it owns and their background work. */
export function nodeFeatures(): FeatureModule[] {
  return [
    ActorNodeModule.forRoot(),
    ActorClientModule,
    DomainsNodeModule,
    WebhooksNodeModule,
    PurchasesNodeModule,
    EdgeReplicaWriterModule,
  ];
}

/** What the edge process runs (standalone too): TLS by SNI, proxy and redirect to origins, ACME HTTP-01 answers. */
export function edgeFeatures(): FeatureModule[] {
  return [EdgeModule.forRoot()];
}

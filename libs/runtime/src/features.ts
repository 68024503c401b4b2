import { ActorClientModule, ActorNodeModule } from '@app/actors';
import { AdminModule, ClusterAdminModule } from '@app/admin';
import { ApiKeysModule } from '@app/api-keys';
import { AuthModule } from '@app/auth';
import { ConnectApiModule } from '@app/connect';
import { DomainsApiModule, DomainsNodeModule } from '@app/domains';
import { LimitsModule } from '@app/limits';
import { OpenApiModule } from '@app/openapi';
import { OAuthModule } from '@app/oauth';
import { ProjectsModule } from '@app/projects';
import { PurchasesApiModule, PurchasesNodeModule } from '@app/purchases';
import { EdgeModule } from '@app/edge';
import { WebhooksApiModule, WebhooksNodeModule } from '@app/webhooks';
import { WorkspacesModule } from '@app/workspaces';
import { RecordChecksApiModule, ToolsApiModule } from '@app/tools';
import { ConnectSessionsModule } from '@app/connect-sessions';
import { DnsApplyModule } from '@app/dns-apply';
import { WidgetModule } from '@app/widget';
import { ConsoleModule } from '@app/console';
import { DynamicModule, Type } from '@nestjs/common';

type ModuleRef = Type<unknown> | DynamicModule;

/** The HTTP API: authentication, the admin API and the /v1 resources. */
export function apiFeatures(): ModuleRef[] {
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

/** The actor node: hosts the actors of the shards it owns. */
export function nodeFeatures(): ModuleRef[] {
  return [ActorNodeModule.forRoot(), ActorClientModule, DomainsNodeModule, WebhooksNodeModule, PurchasesNodeModule];
}

/** The edge: TLS termination by SNI, proxy and redirect to origins, ACME HTTP-01 answers. */
export function edgeFeatures(): ModuleRef[] {
  return [EdgeModule.forRoot()];
}

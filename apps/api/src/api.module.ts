import { ActorClientModule } from '@app/actors';
import { AdminModule, ClusterAdminModule } from '@app/admin';
import { ApiKeysModule } from '@app/api-keys';
import { AuthModule } from '@app/auth';
import { AppConfig } from '@app/config';
import { ConnectApiModule } from '@app/connect';
import { ConnectSessionsModule } from '@app/connect-sessions';
import { ConsoleModule } from '@app/console';
import { DnsApplyModule } from '@app/dns-apply';
import { DomainsApiModule } from '@app/domains';
import { LimitsModule } from '@app/limits';
import { OAuthModule } from '@app/oauth';
import { OpenApiModule } from '@app/openapi';
import { ProjectsModule } from '@app/projects';
import { PurchasesApiModule } from '@app/purchases';
import { FeatureModule, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { RecordChecksApiModule, ToolsApiModule } from '@app/tools';
import { WebhooksApiModule } from '@app/webhooks';
import { WidgetModule } from '@app/widget';
import { WorkspacesModule } from '@app/workspaces';
import { DynamicModule, Module } from '@nestjs/common';

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

/** The stateless HTTP gateway. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: ApiModule, imports: [RuntimeModule.forRoot(config, database), ...apiFeatures()] };
  }
}

import { ConsoleAccountController } from './account/console-account.controller';
import { ConsoleFlashes } from './console-flashes.store';
import { AdminModule } from '@app/admin';
import { ConnectSessionsModule } from '@app/connect-sessions';
import { DomainsApiModule } from '@app/domains';
import { WebhooksApiModule } from '@app/webhooks';
import { WorkspacesModule } from '@app/workspaces';
import { RecordChecksApiModule } from '@app/tools';
import { ConsoleDomainsController } from './console-domains.controller';
import { ConsoleWebhooksController } from './console-webhooks.controller';
import { ConsoleAuditController } from './console-audit.controller';
import { ConsoleClusterController } from './console-cluster.controller';
import { ConsolePurchasesController } from './console-purchases.controller';
import { ConsolePurchases } from './console-purchases.service';
import { PurchasesApiModule } from '@app/purchases';
import { OAuthModule } from '@app/oauth';
import { ConsoleOAuthClientsController } from './console-oauth-clients.controller';
import { ConsoleTimeline } from './console-timeline.service';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { API_CHANGES } from '@app/http';
import { ApiAuditor } from './api-auditor.interceptor';
import { ConsoleAccount, ConsoleMembership } from './console-account.entity';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleAuthController } from './console-auth.controller';
import { ConsoleSessions } from './console-sessions.store';
import { ConsoleUsers } from './console-users.store';
import { ConsoleUsersAdminController } from './console-users.admin.controller';
import { ConsoleWorkspaces } from './console-workspaces.service';
import { ConsoleWorkspacesController } from './console-workspaces.controller';
import { ConsoleGuard } from './console.guard';
import { ConsoleQueries } from './console.queries';
import { SignInThrottle } from './signin-throttle.store';
import { ConsoleSsoController } from './sso/console-sso.controller';
import { OidcClient } from './sso/oidc-client';
import { SsoSignIn } from './sso/sso-signin.service';
import { ConsoleUsersController } from './console-users.controller';
import { ConsoleSearchController } from './console-search.controller';
import { ConsoleNotFoundController } from './console-not-found.controller';
import { ConsoleUserAdmin } from './console-user-admin.store';
import { ConsoleEndpointPages } from './console-endpoint-pages.service';
import { ConsoleDomainPages } from './console-domain-pages.service';
import { ConsoleAuditor } from './console-auditor.interceptor';
import { PaymentsModule } from '@app/payments';
import { ConsoleCardController } from './billing/console-card.controller';
import { WorkspaceCards } from './billing/workspace-cards.service';
import { ConsoleBuyController } from './buying/console-buy.controller';

/** The web console under /console (api, standalone): pages over the same use cases as /v1. */
@Module({
  imports: [
    MikroOrmModule.forFeature([ConsoleAccount, ConsoleMembership]),
    AdminModule,
    WorkspacesModule,
    DomainsApiModule,
    WebhooksApiModule,
    ConnectSessionsModule,
    RecordChecksApiModule,
    PurchasesApiModule,
    OAuthModule,
    PaymentsModule,
  ],
  controllers: [
    ConsoleAuthController,
    ConsoleWorkspacesController,
    ConsoleDomainsController,
    ConsoleWebhooksController,
    ConsoleAuditController,
    ConsoleClusterController,
    ConsolePurchasesController,
    ConsoleOAuthClientsController,
    ConsoleUsersAdminController,
    ConsoleSsoController,
    ConsoleUsersController,
    ConsoleSearchController,
    ConsoleAccountController,
    ConsoleCardController,
    ConsoleBuyController,
    // Last: the wildcard answers only what no other console route does.
    ConsoleNotFoundController,
  ],
  providers: [
    ConsoleUsers,
    ConsoleSessions,
    ConsoleAudit,
    ConsoleWorkspaces,
    SignInThrottle,
    ConsoleGuard,
    ConsoleTimeline,
    ConsoleQueries,
    ConsolePurchases,
    OidcClient,
    SsoSignIn,
    ConsoleUserAdmin,
    ConsoleEndpointPages,
    ConsoleDomainPages,
    ConsoleFlashes,
    ConsoleAuditor,
    WorkspaceCards,
    // API and admin changes are audited too (api-audit.routes.ts); global, as they are other modules' routes,
    // and as API_CHANGES for the routes answered before Nest's pipeline (found by token, not imported).
    ApiAuditor,
    { provide: APP_INTERCEPTOR, useExisting: ApiAuditor },
    { provide: API_CHANGES, useExisting: ApiAuditor },
  ],
  exports: [ConsoleUsers],
})
export class ConsoleModule {}

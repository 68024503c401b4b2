import { WorkspacesModule } from '@app/workspaces';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { OAuthClient } from './oauth-client.entity';
import { DiscoveryController } from './discovery.controller';
import { OAuthAdminController } from './oauth-admin.controller';
import { OAuthClientRepository } from './oauth-client.repository';
import { OAuthClients } from './oauth-clients.usecase';
import { OAuthController } from './oauth.controller';
import { OAuthTokenRepository } from './oauth-token.repository';
import { OAuthTokens } from './oauth-tokens.service';

/** OAuth 2.0 client credentials: discovery, token, revocation, introspection, client admin (api, standalone). */
@Module({
  imports: [WorkspacesModule, MikroOrmModule.forFeature([OAuthClient])],
  controllers: [DiscoveryController, OAuthController, OAuthAdminController],
  providers: [OAuthClientRepository, OAuthTokenRepository, OAuthTokens, OAuthClients],
  exports: [OAuthTokens, OAuthClients],
})
export class OAuthModule {}

import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKey } from './api-key.entity';
import { ApiKeyService } from './api-key.service';
import { AuthGuard } from './auth.guard';
import { CredentialResolvers } from './credential-resolvers';

@Global()
@Module({
  imports: [MikroOrmModule.forFeature([ApiKey])],
  providers: [CredentialResolvers, ApiKeyService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [CredentialResolvers, ApiKeyService],
})
export class AuthModule {}

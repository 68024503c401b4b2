import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { CredentialResolvers } from './credential-resolvers';

/** The default-deny guard and the registry every credential kind (API keys, OAuth, connect sessions) joins. */
@Global()
@Module({
  providers: [CredentialResolvers, AuthGuard, { provide: APP_GUARD, useExisting: AuthGuard }],
  exports: [CredentialResolvers, AuthGuard],
})
export class AuthModule {}

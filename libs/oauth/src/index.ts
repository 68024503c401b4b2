export { OAuthModule } from './oauth.module';
// The grants the API document names (libs/openapi).
export { GRANT_TYPES } from './oauth-request';
// Client registration, shared with the console.
export { oauthClientSchema, OAuthClients, type OAuthClientView, scopesSchema } from './oauth-clients.usecase';
export { CreateOAuthClientDto } from './dto/create-oauth-client.dto';

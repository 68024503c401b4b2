export { OAuthModule } from './oauth.module';
// The grants the API document names (libs/openapi).
export { GRANT_TYPES } from './oauth-request';

export * from './oauth-credentials';
export * from './oauth-request';
export * from './oauth-tokens.service';
export * from './oauth-clients.usecase';
export * from './oauth.module';

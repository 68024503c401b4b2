/** Validated configuration: read process.env once at start and hand out typed values. */
export { APP_CONFIG, ConfigModule } from './config.module';
export { type AppConfig, loadConfig, type NamedResolver, type ProcessRole } from './app-config';
export { loadConfigOrExit } from './load-or-exit';
export type { Env } from './env-parsers';
export type { ConsoleOidcConfig } from './console-oidc-config';
export type { AcmeIssuerConfig } from './acme-issuers-config';
export type { NamecheapConfig } from './provider-accounts-config';

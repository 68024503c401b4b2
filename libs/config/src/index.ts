export { type AppConfig, loadConfig, type NamedResolver, type ProcessRole } from './app-config';
export { APP_CONFIG, ConfigModule } from './config.module';
export { loadConfigOrExit } from './load-or-exit';
export type { Env } from './env-parsers';

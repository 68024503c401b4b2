export * from './app-config';
export * from './config.module';
export * from './load-or-exit';
export { ConfigError } from './env-parsers';
export type { Env } from './env-parsers';

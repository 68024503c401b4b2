import { AppConfig, ProcessRole, loadConfig } from './app-config';
import { ConfigError, Env } from './env-parsers';

/** Loads the configuration; a bad value prints one line and exits non-zero. */
export function loadConfigOrExit(role: ProcessRole, env: Env = process.env): AppConfig {
  try {
    return loadConfig(env, role);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

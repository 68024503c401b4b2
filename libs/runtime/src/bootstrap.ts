import { AppConfig, ProcessRole, loadConfigOrExit } from '@app/config';
import { createHttpApp, registerLogSecret } from '@app/http';
import { EmbeddedPostgres, startEmbeddedPostgres } from '@app/persistence';
import { DynamicModule, Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { portInUseError } from './port-in-use';
import { ResolvedDatabase } from './runtime.module';

export interface RunningApp {
  app: NestFastifyApplication;
  config: AppConfig;
  url: string;
  close(): Promise<void>;
}

export interface BootOptions {
  role: ProcessRole;
  /** Builds the root module from the validated config and the database to use. */
  rootModule: (config: AppConfig, database: ResolvedDatabase) => DynamicModule;
  /** Lets standalone fill in defaults (a generated admin token) after validation. */
  prepare?: (config: AppConfig) => AppConfig;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts one process: validated config (exit on a bad value), the embedded PostgreSQL when
 * DATABASE_URL is unset (standalone only), the Nest app on PORT, and a clean shutdown on SIGTERM.
 * A port in use fails the start with the setting that chose it.
 */
async function boot(options: BootOptions): Promise<RunningApp> {
  let config = loadConfigOrExit(options.role, options.env ?? process.env);
  if (options.prepare) config = options.prepare(config);
  secretsOf(config).forEach(registerLogSecret);
  let embedded: EmbeddedPostgres | undefined;
  if (!config.databaseUrl) embedded = await startEmbeddedPostgres(config.dataDir);
  const database: ResolvedDatabase = embedded
    ? { url: embedded.url, embedded: true }
    : { url: config.databaseUrl as string, embedded: false };
  try {
    const app = await createHttpApp(options.rootModule(config, database), config.trustedProxies);
    if (config.openapiViolationsFile) {
      // Tests only; loaded only then (the checker's libraries are dev dependencies).
      const { logOpenApiViolations } = await import('@app/openapi');
      await logOpenApiViolations(app, config.role, config.openapiViolationsFile);
    }
    await app.listen({ port: config.port, host: '0.0.0.0' });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        await app.close();
        await embedded?.stop();
      })());
    return { app, config, url: `http://127.0.0.1:${port}`, close };
  } catch (error) {
    await embedded?.stop();
    // A port taken (a running quickstart holds 8080): say which setting chose it.
    throw portInUseError(error, config) ?? error;
  }
}

/** Settings that are secrets without a recognizable shape: cut from every log line by value. */
function secretsOf(config: AppConfig): (string | undefined)[] {
  return [
    config.adminToken,
    config.signingSecret,
    config.encryptionKey,
    config.stripe?.secretKey,
    config.namecheap?.apiKey,
    config.consoleOidc?.clientSecret,
    ...[config.databaseUrl, ...(config.natsUrls ?? [])].map(passwordOf),
  ];
}

/** The password of a `scheme://user:password@host` URL, should an error quote the URL. */
function passwordOf(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `boot` as a program: logs a start failure as one line and exits non-zero. */
export function runMain(options: BootOptions, onReady?: (running: RunningApp) => void): void {
  const logger = new Logger('Main');
  boot(options)
    .then((running) => {
      // Start-up lines Nest buffered go out first, so the banner onReady prints is the last thing on screen.
      running.app.flushLogs();
      onReady?.(running);
      const stop = (signal: string) => {
        logger.log(`${signal} received, shutting down`);
        running
          .close()
          .then(() => process.exit(0))
          .catch((err: unknown) => {
            logger.error({ err }, 'Shutdown failed');
            process.exit(1);
          });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    })
    .catch((error: unknown) => {
      process.stderr.write(
        `Failed to start ${options.role}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    });
}

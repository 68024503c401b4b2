import { AppConfig, Env, loadConfig } from '@app/config';
import { EdgeModule, EdgeOptions } from '@app/edge';
import { createHttpApp } from '@app/http';
import { ResolvedDatabase, RuntimeModule, apiFeatures, nodeFeatures } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TEST_ENCRYPTION_KEY } from './test-app';

/** The edge's traffic ports bound to loopback only, for tests. */
export const loopbackEdge = (overrides: Partial<EdgeOptions> = {}) =>
  EdgeModule.forRoot({ listenHost: '127.0.0.1', ...overrides });

@Module({})
class LoopbackStandaloneModule {}

/** What standalone runs (api + node + edge features), with the edge on loopback. */
export function loopbackStandalone(config: AppConfig, database: ResolvedDatabase): DynamicModule {
  return {
    module: LoopbackStandaloneModule,
    imports: [RuntimeModule.forRoot(config, database), ...apiFeatures(), ...nodeFeatures(), loopbackEdge()],
  };
}

@Module({})
class EdgeOnlyModule {}

/** A second, edge-only app on an existing database (its own config, e.g. no OUTBOUND_ALLOW_CIDRS). */
export async function startEdgeApp(
  databaseUrl: string,
  env: Env,
  overrides: Partial<EdgeOptions> = {},
): Promise<NestFastifyApplication> {
  const config = loadConfig(
    {
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...env,
      DATABASE_URL: databaseUrl,
    },
    'standalone',
  );
  const app = await createHttpApp({
    module: EdgeOnlyModule,
    imports: [RuntimeModule.forRoot(config, { url: databaseUrl, embedded: false }), loopbackEdge(overrides)],
  });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

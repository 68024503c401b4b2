import { AppConfig, Env, ProcessRole, loadConfig } from '@app/config';
import { configureHttpApp, createFastifyAdapter } from '@app/http';
import { ResolvedDatabase } from '@app/runtime';
import { DynamicModule, InjectionToken } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module';
import { freeEdgePorts, retryOnPortCollision } from './free-ports';
import { validateExchangesAgainstOpenApi } from './openapi-exchanges';
import { TestDatabase, createTestDatabase } from './test-database';
import { Client } from 'pg';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const TEST_SIGNING_SECRET = 'test-signing-secret-0123456789abcdef0123';
export const TEST_ENCRYPTION_KEY = 'test-encryption-key-0123456789abcdef0123';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  db: TestDatabase & { query<T = any>(sql: string, params?: unknown[]): Promise<T[]> };
  /** The HTTP server, for supertest. */
  server: ReturnType<NestFastifyApplication['getHttpServer']>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Env;
  role?: ProcessRole;
  /** The root module; default: standalone (api + node + edge features) on the given database. */
  rootModule?: (config: AppConfig, database: ResolvedDatabase) => DynamicModule;
  /** Providers replaced by test values (e.g. a clock the test moves by hand). */
  overrides?: { provide: InjectionToken; useValue: unknown }[];
}

/** The real Nest app with the real pipeline on a fresh PostgreSQL database; nothing mocked. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const chosen = options.env?.EDGE_HTTP_PORT !== undefined || options.env?.EDGE_HTTPS_PORT !== undefined;
  if (chosen) return startTestAppOnce(options, {});
  return retryOnPortCollision(async () => startTestAppOnce(options, await freeEdgePorts()));
}

async function startTestAppOnce(options: TestAppOptions, edgePorts: Env): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig(
    {
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SIGNING_SECRET: TEST_SIGNING_SECRET,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      RATE_LIMITS: 'off',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...edgePorts,
      ...options.env,
      DATABASE_URL: db.url,
    },
    options.role ?? 'standalone',
  );
  const database = { url: db.url, embedded: false };
  const rootModule = options.rootModule ?? ((c, d) => StandaloneModule.forRoot(c, d));
  let app: NestFastifyApplication | undefined;
  try {
    let builder = Test.createTestingModule({ imports: [rootModule(config, database)] });
    for (const o of options.overrides ?? []) builder = builder.overrideProvider(o.provide).useValue(o.useValue);
    app = (await builder.compile()).createNestApplication<NestFastifyApplication>(
      createFastifyAdapter(config.trustedProxies),
      { bufferLogs: true, bodyParser: false },
    );
    configureHttpApp(app);
    await validateExchangesAgainstOpenApi(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const started = app;
    return {
      app: started,
      config,
      db: { ...db, query: (sql, params) => queryOnce(db.url, sql, params) },
      server: started.getHttpServer(),
      close: async () => {
        await started.close();
        await db.drop();
      },
    };
  } catch (error) {
    // A start that failed half-way (e.g. an edge port taken) has open pools and bus connections.
    await app?.close().catch(() => undefined);
    await db.drop();
    throw error;
  }
}

export async function queryOnce<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    return (await pg.query(sql, params)).rows as T[];
  } finally {
    await pg.end();
  }
}

import { AppConfig, ConfigModule, Env, loadConfig } from '@app/config';
import { Payments, PaymentsModule } from '@app/payments';
import { PersistenceModule } from '@app/persistence';
import { Registrar, RegistrarModule } from '@app/registrar';
import { TestDatabase, createTestDatabase, queryOnce } from '@test/support';
import { Test, TestingModule } from '@nestjs/testing';

export interface ProviderModule {
  registrar: Registrar;
  payments: Payments;
  config: AppConfig;
  db: TestDatabase & { query<T = any>(sql: string, params?: unknown[]): Promise<T[]> };
  /** A second Nest context on the same database: another node, or the same node after a restart. */
  restart(): Promise<{ registrar: Registrar; payments: Payments; close(): Promise<void> }>;
  close(): Promise<void>;
}

async function compile(config: AppConfig, url: string): Promise<TestingModule> {
  const module = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot(config),
      PersistenceModule.forRoot({ url, embedded: false, migrateOnStart: true }),
      RegistrarModule,
      PaymentsModule,
    ],
  }).compile();
  module.useLogger(false);
  await module.init();
  return module;
}

/** The registrar and payment adapters exactly as the app wires them (by REGISTRAR/PAYMENTS) on a fresh database. */
export async function startProviderModule(env: Env = {}): Promise<ProviderModule> {
  const db = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env, DATABASE_URL: db.url }, 'tool');
  const contexts: TestingModule[] = [];
  try {
    const first = await compile(config, db.url);
    contexts.push(first);
    return {
      registrar: first.get(Registrar),
      payments: first.get(Payments),
      config,
      db: { ...db, query: (sql, params) => queryOnce(db.url, sql, params) },
      restart: async () => {
        const next = await compile(config, db.url);
        contexts.push(next);
        return { registrar: next.get(Registrar), payments: next.get(Payments), close: () => next.close() };
      },
      close: async () => {
        for (const context of contexts) await context.close().catch(() => undefined);
        await db.drop();
      },
    };
  } catch (error) {
    for (const context of contexts) await context.close().catch(() => undefined);
    await db.drop();
    throw error;
  }
}

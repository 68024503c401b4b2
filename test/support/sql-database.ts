import { MikroSqlExecutor, PersistenceModule } from '@app/persistence';
import { INestApplicationContext, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createTestDatabase } from './test-database';

/** A fresh database with only the persistence module on it, for the stores' own SQL. */
export interface SqlDatabase {
  app: INestApplicationContext;
  db: MikroSqlExecutor;
  /** Closes the module and drops the database. */
  close(): Promise<void>;
}

/**
 * `empty`: migrated from the sources at start instead of copied from the template built from dist/;
 * `providers`: what the test needs besides the executor.
 */
export async function startSqlDatabase(
  options: { empty?: boolean; providers?: Provider[] } = {},
): Promise<SqlDatabase> {
  const database = await createTestDatabase({ empty: options.empty });
  let app: INestApplicationContext | undefined;
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [PersistenceModule.forRoot({ url: database.url, embedded: false, migrateOnStart: true })],
      providers: options.providers ?? [],
    }).compile();
    app = await moduleRef.init();
  } catch (error) {
    await database.drop();
    throw error;
  }
  const started = app;
  return {
    app: started,
    db: started.get(MikroSqlExecutor),
    close: async () => {
      await started.close();
      await database.drop();
    },
  };
}

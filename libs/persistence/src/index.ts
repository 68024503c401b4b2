/** PostgreSQL: the MikroORM module, raw SQL executors, ids and the embedded database for standalone runs. */
export { PersistenceModule } from './persistence.module';
// How long a query waits for a pooled connection before it fails (the api then answers 503)
export { POOL_WAIT_MS, type DatabaseTarget } from './orm-options';
// Where the database is and whether it is the embedded one (a single session)
export { DATABASE_TARGET } from './migration-runner.service';
export { DatabaseHealth } from './database-health.service';
// Raw SQL, only in the files raw-sql.ts names
export { DedicatedSqlExecutor, MikroSqlExecutor, type SqlExecutor } from './sql-executor';
export { PgDirect } from './pg-direct';
export { batchedReads } from './batched-reads';
export { BatchedWrites } from './batched-writes';
// Ids
export { idempotentId, newId, randomBase62 } from './ids';
// Embedded PostgreSQL for the standalone process
export { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

export { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
export { PersistenceModule } from './persistence.module';
export { DatabaseHealth } from './database-health.service';
export { newId, randomBase62 } from './ids';
export { MikroSqlExecutor, type SqlExecutor } from './sql-executor';
export { PgDirect } from './pg-direct';

export * from './embedded-postgres';
export * from './orm-options';
export * from './migrate';
export * from './persistence.module';
export * from './database-health.service';
export * from './ids';
export { DATABASE_TARGET } from './migration-runner.service';
export * from './sql-executor';
export * from './pg-direct';

import { MikroOrmModule } from '@mikro-orm/nestjs';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseHealth } from './database-health.service';
import { DATABASE_TARGET, MIGRATE_ON_START, MigrationRunner } from './migration-runner.service';
import { DatabaseTarget, ormOptions } from './orm-options';
import { MikroORM } from '@mikro-orm/core';
import { MikroSqlExecutor } from './sql-executor';
import { PgDirect } from './pg-direct';
import { RequestScopedEntityManager } from './request-scope';
import { RequestScopeHook } from './request-scope.hook';

export interface PersistenceOptions extends DatabaseTarget {
  migrateOnStart: boolean;
  /** Start without reaching the database (the edge serves from its replica through an outage). */
  connectLater?: boolean;
}

/** MikroORM on PostgreSQL (real or embedded), with migrations applied at start. */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceOptions): DynamicModule {
    const target: DatabaseTarget = { url: options.url, embedded: options.embedded };
    const scope = new RequestScopedEntityManager();
    return {
      module: PersistenceModule,
      imports: [
        MikroOrmModule.forRoot({
          ...ormOptions(target, { context: scope.context, connect: !options.connectLater }),
          autoLoadEntities: true,
          // Replaced by RequestScopeHook: a lazily forked EntityManager, no middleware per request.
          registerRequestContext: false,
        }),
      ],
      providers: [
        { provide: DATABASE_TARGET, useValue: target },
        { provide: MIGRATE_ON_START, useValue: options.migrateOnStart },
        MigrationRunner,
        DatabaseHealth,
        { provide: RequestScopedEntityManager, useValue: scope },
        RequestScopeHook,
        { provide: MikroSqlExecutor, inject: [MikroORM], useFactory: (orm: MikroORM) => MikroSqlExecutor.of(orm) },
        { provide: PgDirect, inject: [MikroORM], useFactory: (orm: MikroORM) => PgDirect.of(orm) },
      ],
      exports: [DatabaseHealth, DATABASE_TARGET, MikroSqlExecutor, PgDirect],
    };
  }
}

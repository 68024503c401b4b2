import { AppConfig, ConfigModule } from '@app/config';
import { BusModule } from '@app/bus';
import { CryptoModule } from '@app/crypto';
import { HealthModule } from '@app/health';
import { HttpCoreModule } from '@app/http';
import { MetricsModule } from '@app/metrics';
import { PersistenceModule } from '@app/persistence';
import { DynamicModule, Module, Type } from '@nestjs/common';
import { ClockModule } from './clock.module';

/** The database actually used: DATABASE_URL, or the embedded PostgreSQL the caller started. */
export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
}

/** One entry of what a process runs (the lists live in each app's root module, apps/<app>/src). */
export type FeatureModule = Type<unknown> | DynamicModule;

/** What every process has: config, the clock, logs and errors, the database, the bus, health and metrics. */
@Module({})
export class RuntimeModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return {
      module: RuntimeModule,
      imports: [
        ConfigModule.forRoot(config),
        ClockModule,
        HttpCoreModule.forRoot({ logLevel: config.logLevel, service: config.role }),
        PersistenceModule.forRoot({
          ...database,
          // The edge starts during a database outage too: it serves from its replica and never migrates.
          migrateOnStart: config.migrateOnStart && config.role !== 'edge',
          connectLater: config.role === 'edge',
        }),
        BusModule.forRoot({
          natsUrls: config.natsUrls,
          name: `${config.role}:${config.nodeId}`,
          subjectPrefix: config.natsSubjectPrefix,
        }),
        HealthModule,
        MetricsModule,
        CryptoModule,
      ],
    };
  }
}

import { AppConfig } from '@app/config';
import { nodeFeatures, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** An actor node; its HTTP port serves health and metrics only. */
@Module({})
export class NodeModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: NodeModule, imports: [RuntimeModule.forRoot(config, database), ...nodeFeatures()] };
  }
}

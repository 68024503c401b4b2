import { AppConfig } from '@app/config';
import { ResolvedDatabase, RuntimeModule, edgeFeatures } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The edge; its PORT serves health and metrics (traffic ports come with the edge issue). */
@Module({})
export class EdgeModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: EdgeModule, imports: [RuntimeModule.forRoot(config, database), ...edgeFeatures()] };
  }
}

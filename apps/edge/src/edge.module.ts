import { AppConfig } from '@app/config';
import { edgeFeatures, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The edge: traffic on EDGE_HTTP_PORT and EDGE_HTTPS_PORT; its PORT serves health and metrics. */
@Module({})
export class EdgeModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: EdgeModule, imports: [RuntimeModule.forRoot(config, database), ...edgeFeatures()] };
  }
}

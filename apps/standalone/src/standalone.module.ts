import { AppConfig } from '@app/config';
import { apiFeatures, edgeFeatures, nodeFeatures, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** api + node + edge in one process, on the in-process bus. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [RuntimeModule.forRoot(config, database), ...apiFeatures(), ...nodeFeatures(), ...edgeFeatures()],
    };
  }
}

import { AppConfig } from '@app/config';
import { ResolvedDatabase, RuntimeModule, apiFeatures, edgeFeatures, nodeFeatures } from '@app/runtime';
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

import { AppConfig } from '@app/config';
import { ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';
import { apiFeatures } from '../../api/src/api.module';
import { edgeFeatures } from '../../edge/src/edge.module';
import { nodeFeatures } from '../../node/src/node.module';

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

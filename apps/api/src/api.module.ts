import { AppConfig } from '@app/config';
import { apiFeatures, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** The stateless HTTP gateway. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: ApiModule, imports: [RuntimeModule.forRoot(config, database), ...apiFeatures()] };
  }
}

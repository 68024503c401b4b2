import { AppConfig } from '@app/config';
import { EdgeModule as EdgeTrafficModule } from '@app/edge';
import { FeatureModule, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { DynamicModule, Module } from '@nestjs/common';

/** What the edge process runs (standalone too): TLS by SNI, proxy and redirect to origins, ACME HTTP-01 answers. */
export function edgeFeatures(): FeatureModule[] {
  return [EdgeTrafficModule.forRoot()];
}

/** The edge; its PORT serves health and metrics (traffic ports come with the edge issue). */
@Module({})
export class EdgeModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: EdgeModule, imports: [RuntimeModule.forRoot(config, database), ...edgeFeatures()] };
  }
}

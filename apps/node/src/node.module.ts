import { ActorClientModule, ActorNodeModule } from '@app/actors';
import { AppConfig } from '@app/config';
import { DomainsNodeModule } from '@app/domains';
import { EdgeReplicaWriterModule } from '@app/edge';
import { PurchasesNodeModule } from '@app/purchases';
import { FeatureModule, ResolvedDatabase, RuntimeModule } from '@app/runtime';
import { WebhooksNodeModule } from '@app/webhooks';
import { DynamicModule, Module } from '@nestjs/common';

/** What an actor node runs (standalone too): the actors of the shards it owns and their background work. */
export function nodeFeatures(): FeatureModule[] {
  return [
    ActorNodeModule.forRoot(),
    ActorClientModule,
    DomainsNodeModule,
    WebhooksNodeModule,
    PurchasesNodeModule,
    EdgeReplicaWriterModule,
  ];
}

/** An actor node; its HTTP port serves health and metrics only. */
@Module({})
export class NodeModule {
  static forRoot(config: AppConfig, database: ResolvedDatabase): DynamicModule {
    return { module: NodeModule, imports: [RuntimeModule.forRoot(config, database), ...nodeFeatures()] };
  }
}

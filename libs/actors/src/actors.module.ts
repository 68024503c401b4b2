import { MikroORM } from '@mikro-orm/core';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Bus, NatsBus } from '@app/bus';
import { MikroSqlExecutor } from '@app/persistence';
import {
  BeforeApplicationShutdown,
  DynamicModule,
  Global,
  Injectable,
  Module,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ActorClient } from './actor-client';
import { ActorNode } from './actor-node';
import { ActorKind } from './actor.types';
import { DEFAULT_MEMBERSHIP, KvMembership, Membership, StaticMembership } from './membership';

/** Feature modules register their actor kinds here during init; the node starts after. */
@Injectable()
export class ActorRegistry {
  readonly kinds: ActorKind[] = [];
  register(kind: ActorKind): void {
    this.kinds.push(kind);
  }
}

function membershipFor(bus: Bus, config: AppConfig): Membership {
  if (bus instanceof NatsBus) {
    const bucket = bus.prefix ? `${DEFAULT_MEMBERSHIP.bucket}_${bus.prefix}` : DEFAULT_MEMBERSHIP.bucket;
    return new KvMembership(bus.connection, config.nodeId, {
      ...DEFAULT_MEMBERSHIP,
      bucket,
      replicas: config.natsReplicas,
    });
  }
  return new StaticMembership(config.nodeId);
}

@Injectable()
class ActorNodeLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly node: ActorNode,
    private readonly registry: ActorRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.registry.kinds.forEach((kind) => this.node.register(kind));
    await this.node.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.node.drain();
  }
}

/** The actor client, for every process that sends commands (api, standalone). */
@Global()
@Module({
  providers: [{ provide: ActorClient, inject: [Bus], useFactory: (bus: Bus) => new ActorClient(bus) }],
  exports: [ActorClient],
})
export class ActorClientModule {}

/** Hosts actors on this process (node, standalone). */
@Global()
@Module({})
export class ActorNodeModule {
  static forRoot(): DynamicModule {
    return {
      module: ActorNodeModule,
      providers: [
        ActorRegistry,
        {
          provide: ActorNode,
          inject: [Bus, MikroORM, APP_CONFIG],
          useFactory: (bus: Bus, orm: MikroORM, config: AppConfig) =>
            new ActorNode({
              nodeId: config.nodeId,
              bus,
              db: MikroSqlExecutor.of(orm),
              membership: membershipFor(bus, config),
              limits: { idleMs: config.actorIdleSeconds * 1000, maxResident: config.actorMaxResident },
            }),
        },
        ActorNodeLifecycle,
      ],
      exports: [ActorRegistry, ActorNode],
    };
  }
}

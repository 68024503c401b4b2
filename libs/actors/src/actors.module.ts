import { MikroORM } from '@mikro-orm/core';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Bus, NatsBus } from '@app/bus';
import { CALLER_PRESENCE, CallerPresence } from '@app/kernel';
import {
  DATABASE_TARGET,
  DatabaseTarget,
  DedicatedSqlExecutor,
  MikroSqlExecutor,
  POOL_WAIT_MS,
} from '@app/persistence';
import {
  BeforeApplicationShutdown,
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ActorClient } from './actor-client';
import { ActorNode } from './actor-node';
import { ActorKind } from './actor.types';
import { DEFAULT_MEMBERSHIP, KvMembership, Membership, StaticMembership } from './membership';
import { PgPresence } from './presence';

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

/**
 * The leases' own connections (two: a renewal never waits behind a claim that waits for a fenced
 * write). Under load the shared pool of 10 made renewals wait 3-9 s for a connection, and past 8 s a
 * node drops every shard. The embedded database has one session: there the leases share it.
 */
const LEASE_DB = Symbol('LEASE_DB');
const LEASE_CONNECTIONS = 2;

@Injectable()
class ActorNodeLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly node: ActorNode,
    private readonly registry: ActorRegistry,
    @Inject(LEASE_DB) private readonly leaseDb: DedicatedSqlExecutor | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.registry.kinds.forEach((kind) => this.node.register(kind));
    await this.node.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.node.drain();
    await this.leaseDb?.close();
  }
}

/** The actor client, for every process that sends commands (api, standalone). */
@Global()
@Module({
  providers: [
    {
      provide: ActorClient,
      inject: [Bus, { token: CALLER_PRESENCE, optional: true }],
      useFactory: (bus: Bus, caller?: CallerPresence) => new ActorClient(bus, undefined, caller),
    },
  ],
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
          provide: LEASE_DB,
          inject: [DATABASE_TARGET],
          useFactory: (target: DatabaseTarget) =>
            target.embedded ? null : DedicatedSqlExecutor.open(target.url, LEASE_CONNECTIONS, POOL_WAIT_MS),
        },
        {
          provide: ActorNode,
          inject: [Bus, MikroORM, APP_CONFIG, LEASE_DB, DATABASE_TARGET],
          useFactory: (
            bus: Bus,
            orm: MikroORM,
            config: AppConfig,
            leaseDb: DedicatedSqlExecutor | null,
            target: DatabaseTarget,
          ) =>
            new ActorNode({
              nodeId: config.nodeId,
              bus,
              db: MikroSqlExecutor.of(orm),
              leaseDb: leaseDb ?? undefined,
              membership: membershipFor(bus, config),
              // One process on the embedded database (one session) has nobody to take over from.
              presence:
                bus instanceof NatsBus && !target.embedded ? new PgPresence(target.url, config.nodeId) : undefined,
              limits: { idleMs: config.actorIdleSeconds * 1000, maxResident: config.actorMaxResident },
            }),
        },
        ActorNodeLifecycle,
      ],
      exports: [ActorRegistry, ActorNode],
    };
  }
}

import { ActorClient, ActorRequest } from '@app/actors';
import { InProcessBus } from '@app/bus';
import { DomainCommand } from '../model/domain.protocol';
import { DomainRecord } from '../model/domain.record';
import { DomainActor, DomainActorDeps } from '../node/domain.actor';
import { MemoryActorContext } from './memory-actor-context';

/**
 * Domain actors behind a real ActorClient, over an in-process bus, each with a context in memory:
 * what the use cases talk to, with the wire format of the cluster and no node.
 */
export class InMemoryDomainActors {
  readonly bus = new InProcessBus();
  readonly client = new ActorClient(this.bus);
  readonly contexts = new Map<string, MemoryActorContext<DomainRecord>>();
  readonly actor: DomainActor;

  constructor(
    deps: DomainActorDeps,
    public at: Date,
  ) {
    this.actor = new DomainActor(deps);
    this.bus.serve('actors.domain.*', (payload) => {
      const request = payload as ActorRequest;
      const ctx = this.context(request.id);
      ctx.at = this.at;
      return ctx.commit(() => this.actor.handle(ctx, request.command as DomainCommand));
    });
  }

  context(id: string): MemoryActorContext<DomainRecord> {
    const ctx = this.contexts.get(id) ?? new MemoryActorContext<DomainRecord>('domain', id, this.at);
    this.contexts.set(id, ctx);
    return ctx;
  }
}

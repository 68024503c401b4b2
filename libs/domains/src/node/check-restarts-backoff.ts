import { DOMAIN_KIND } from '@app/kernel';
import { ActorContext, Decision, ProtocolActor } from '@app/actors';
import { DomainCommand, DomainProtocol, DomainReply } from '../model/domain.protocol';
import { DomainRecord } from '../model/domain.record';
import { checkRestartsBackoff } from '../store/pending-backoff';

/**
 * The domain actor as a node registers it: a `check` that leaves the domain not serving HTTPS yet
 * (`checkRestartsBackoff`) also puts it back on the pending back-off, once the check has probed.
 * On the node, so the monitor that probes the domain (the shard owner's) is the one woken for it.
 */
export class CheckRestartsBackoff implements ProtocolActor<DomainRecord, DomainProtocol> {
  readonly kind = DOMAIN_KIND;
  readonly store: ProtocolActor<DomainRecord, DomainProtocol>['store'];

  constructor(
    private readonly actor: ProtocolActor<DomainRecord, DomainProtocol>,
    private readonly restart: (id: string) => Promise<void>,
  ) {
    this.store = actor.store;
  }

  async handle(ctx: ActorContext<DomainRecord>, command: DomainCommand): Promise<Decision<DomainRecord, DomainReply>> {
    const decision = await this.actor.handle(ctx, command);
    if (command.type === 'check' && decision.state && checkRestartsBackoff(decision.state.machine))
      await this.restart(ctx.id);
    return decision;
  }
}

import { ActorClient } from '@app/actors';
import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { DomainCommand, domainProtocol } from '../model/domain.protocol';

/** The API's way to a domain actor: ids that cannot be a domain's are 404 without a round trip. */
@Injectable()
export class DomainActors {
  constructor(private readonly actors: ActorClient) {}

  /** `freshId`: the id was minted for this command (a create without an Idempotency-Key). */
  send<C extends DomainCommand>(id: string, command: C, freshId = false) {
    if (!/^dom_[0-9A-Za-z]{1,64}$/.test(id)) throw new DomainError('not_found', 'Domain was not found');
    return this.actors.ask(domainProtocol, id, command, { attemptTimeoutMs: 15_000, freshId });
  }
}

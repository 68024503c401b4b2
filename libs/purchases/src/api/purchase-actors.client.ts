import { ActorClient } from '@app/actors';
import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { PurchaseCommand, purchaseProtocol } from '../model/purchase.protocol';

/** A purchase runs a saga with several providers: give it longer than a domain command. */
const ASK = { attemptTimeoutMs: 60_000, deadlineMs: 120_000 };

/** The API's way to a purchase actor: ids that cannot be a purchase's are 404 without a round trip. */
@Injectable()
export class PurchaseActors {
  constructor(private readonly actors: ActorClient) {}

  send<C extends PurchaseCommand>(id: string, command: C) {
    if (!/^pur_[0-9A-Za-z]{1,64}$/.test(id)) throw new DomainError('not_found', 'Purchase was not found');
    return this.actors.ask(purchaseProtocol, id, command, ASK);
  }
}

import { Injectable } from '@nestjs/common';
import { PurchaseActors } from './purchase-actors.client';

/** PATCH /v1/domain-purchases/{id}: turns autoRenew on or off. */
@Injectable()
export class SetAutoRenew {
  constructor(private readonly actors: PurchaseActors) {}

  async execute(workspaceId: string, id: string, autoRenew: boolean) {
    const { purchase } = await this.actors.send(id, { type: 'set_auto_renew', workspaceId, autoRenew });
    return { purchase };
  }
}

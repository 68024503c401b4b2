import { Injectable } from '@nestjs/common';
import { PurchaseActors } from './purchase-actors.client';

/** POST /v1/domain-purchases/{id}/renew. */
@Injectable()
export class RenewPurchase {
  constructor(private readonly actors: PurchaseActors) {}

  /** `{purchase, renewal}`: the purchase keeps the original registration's years and total; the renewal shows its own charge. */
  async execute(workspaceId: string, id: string, years: number, idempotencyKey?: string) {
    const command = { type: 'renew', workspaceId, years, requestKey: idempotencyKey } as const;
    const { purchase, renewal } = await this.actors.send(id, command);
    return { purchase, renewal };
  }
}

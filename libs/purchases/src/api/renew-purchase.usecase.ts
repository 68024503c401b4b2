import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PurchaseActors } from './purchase-actors.client';

/** POST /v1/domain-purchases/{id}/renew. */
@Injectable()
export class RenewPurchase {
  constructor(private readonly actors: PurchaseActors) {}

  /**
   * `{purchase, renewal}`: the purchase keeps the original registration's years and total; the renewal shows its own
   * charge. `maxTotalCents`: the confirmed price; a higher live price is 409 price_changed before any charge.
   */
  async execute(workspaceId: string, id: string, years: number, idempotencyKey?: string, maxTotalCents?: number) {
    // Without an Idempotency-Key the request still gets a key of its own: after a node crash the actor
    // client resends the command, which must then answer the renewal it started, not start a second.
    const requestKey = idempotencyKey ?? `request:${randomUUID()}`;
    const command = { type: 'renew', workspaceId, years, requestKey, maxTotalCents } as const;
    const { purchase, renewal } = await this.actors.send(id, command);
    return { purchase, renewal };
  }
}

import { Injectable } from '@nestjs/common';
import { PurchaseOrder } from '../model/purchase.protocol';
import { PurchaseView } from '../model/purchase.view';
import { AutoConnectCheck } from './auto-connect.check';
import { CreatePurchaseDto } from './dto/create-purchase.dto';
import { PurchaseActors } from './purchase-actors.client';
import { hostnameOrBadRequest, purchaseIdFor } from './purchase-input';

/** POST /v1/domain-purchases: the input checked here; the purchase's actor quotes, charges and registers. */
@Injectable()
export class CreatePurchase {
  constructor(
    private readonly actors: PurchaseActors,
    private readonly autoConnect: AutoConnectCheck,
  ) {}

  async execute(
    workspaceId: string,
    dto: CreatePurchaseDto,
    idempotencyKey?: string,
  ): Promise<{ purchase: PurchaseView }> {
    const hostname = hostnameOrBadRequest(dto.hostname);
    const autoConnect = dto.autoConnect && (await this.autoConnect.settings(dto.autoConnect, 'autoConnect.'));
    const order: PurchaseOrder = {
      hostname,
      years: dto.years ?? 1,
      registrant: { ...dto.registrant },
      whoisPrivacy: dto.enableWhoisPrivacy ?? true,
      autoRenew: dto.autoRenew ?? false,
      maxTotalCents: dto.maxTotalCents,
      customerReference: dto.customerReference,
      autoConnect,
    };
    const id = purchaseIdFor(workspaceId, idempotencyKey);
    const { purchase } = await this.actors.send(id, { type: 'create', workspaceId, order });
    return { purchase };
  }
}

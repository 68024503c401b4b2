import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError, edgeSettingsOf } from '@app/kernel';
import { DomainRepository, DomainView, toDomainView } from '@app/domains';
import { WorkspaceRepository } from '@app/workspaces';
import { Inject, Injectable } from '@nestjs/common';
import { PurchaseView } from '../model/purchase.view';
import { PurchaseRepository } from '../store/purchase.repository';
import { AutoConnectCheck } from './auto-connect.check';
import { AutoConnectDto } from './dto/create-purchase.dto';
import { PurchaseActors } from './purchase-actors.client';

/**
 * POST /v1/domain-purchases/{id}/connect: autoConnect for a purchase made without it. Checked
 * here as domain create checks (404 first, then 402 without a card, then the origin's rules);
 * the purchase's actor then runs the saga's connect steps.
 */
@Injectable()
export class ConnectPurchase {
  constructor(
    private readonly actors: PurchaseActors,
    private readonly autoConnect: AutoConnectCheck,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly purchases: PurchaseRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly domains: DomainRepository,
  ) {}

  async execute(
    workspaceId: string,
    id: string,
    dto: AutoConnectDto,
    idempotencyKey?: string,
  ): Promise<{ purchase: PurchaseView; domain: DomainView }> {
    await this.purchases.get(workspaceId, id);
    const workspace = await this.workspaces.get(workspaceId);
    if (!workspace.paymentMethodId) {
      throw new DomainError(
        'billing_required',
        'Connecting a domain needs an active subscription: add a card to the workspace first',
      );
    }
    const settings = await this.autoConnect.settings(dto, '');
    // A key of its own without an Idempotency-Key: a command resent after a node crash finds its connect.
    const requestKey = idempotencyKey ?? `request:${randomUUID()}`;
    const command = { type: 'connect', workspaceId, settings, requestKey } as const;
    const { purchase } = await this.actors.send(id, command);
    const domainId = purchase.connectedDomainId;
    if (!domainId) throw new Error('The purchase actor answered a connect without a Domain');
    const edge = edgeSettingsOf(this.config);
    return { purchase, domain: toDomainView(await this.domains.get(workspaceId, domainId), edge) };
  }
}

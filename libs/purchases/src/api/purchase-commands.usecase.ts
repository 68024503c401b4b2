import { ActorClient } from '@app/actors';
import { APP_CONFIG, AppConfig, edgeSettingsOf } from '@app/config';
import { OriginPreflight } from '@app/dns';
import { DomainRepository, DomainView, toDomainView } from '@app/domains';
import { HostnameError, normalizePurchaseHostname } from '@app/domain-model';
import { DomainError } from '@app/http';
import { newId } from '@app/persistence';
import { WorkspaceRepository } from '@app/workspaces';
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AutoConnectDto, CreatePurchaseDto } from './dto/create-purchase.dto';
import { PurchaseCommand, PurchaseOrder, purchaseProtocol } from '../model/purchase.protocol';
import { AutoConnectSettings } from '../model/purchase.record';
import { PurchaseRepository } from '../store/purchase.repository';
import { PurchaseView } from '../model/purchase.view';

/** A purchase runs a saga with several providers: give it longer than a domain command. */
const ASK = { attemptTimeoutMs: 60_000, deadlineMs: 120_000 };

export function hostnameOrBadRequest(input: string, field = 'hostname'): string {
  try {
    return normalizePurchaseHostname(input).hostname;
  } catch (error) {
    if (error instanceof HostnameError)
      throw new DomainError('bad_request', `${field}: ${error.message}`, {
        fields: [{ field, problems: [error.message] }],
      });
    throw error;
  }
}

/**
 * The purchase's id: derived from the Idempotency-Key when there is one, so a retry of a request
 * whose first answer was not kept (a 5xx) reaches the same purchase instead of buying again.
 */
function purchaseIdFor(workspaceId: string, idempotencyKey?: string): string {
  if (!idempotencyKey) return newId('pur');
  return `pur_${createHash('sha256').update(`${workspaceId}\n${idempotencyKey}`).digest('hex').slice(0, 32)}`;
}

/** Everything that changes a purchase: input checks here, then one command to the purchase's actor. */
@Injectable()
export class PurchaseCommands {
  constructor(
    private readonly actors: ActorClient,
    private readonly origins: OriginPreflight,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly purchases: PurchaseRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly domains: DomainRepository,
  ) {}

  async create(
    workspaceId: string,
    dto: CreatePurchaseDto,
    idempotencyKey?: string,
  ): Promise<{ purchase: PurchaseView }> {
    const hostname = hostnameOrBadRequest(dto.hostname);
    const autoConnect = dto.autoConnect && (await this.connectSettings(dto.autoConnect, 'autoConnect.'));
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
    const { purchase } = await this.send(id, { type: 'create', workspaceId, order });
    return { purchase };
  }

  async setAutoRenew(workspaceId: string, id: string, autoRenew: boolean) {
    const { purchase } = await this.send(id, { type: 'set_auto_renew', workspaceId, autoRenew });
    return { purchase };
  }

  /** `{purchase, renewal}`: the purchase keeps the original registration's years and total; the renewal shows its own charge. */
  async renew(workspaceId: string, id: string, years: number, idempotencyKey?: string) {
    const { purchase, renewal } = await this.send(id, {
      type: 'renew',
      workspaceId,
      years,
      requestKey: idempotencyKey,
    });
    return { purchase, renewal };
  }

  async setNameservers(workspaceId: string, id: string, input: string[]) {
    const nameservers = input.map((ns, i) => {
      try {
        return normalizeNameserver(ns);
      } catch (error) {
        const field = `nameservers.${i}`;
        const problem = error instanceof Error ? error.message : 'invalid';
        throw new DomainError('bad_request', `${field}: ${problem}`, { fields: [{ field, problems: [problem] }] });
      }
    });
    const reply = await this.send(id, { type: 'set_nameservers', workspaceId, nameservers });
    return { hostname: reply.purchase.hostname, nameservers: reply.nameservers };
  }

  /**
   * POST /v1/domain-purchases/{id}/connect: autoConnect for a purchase made without it. Checked
   * here as domain create checks (404 first, then 402 without a card, then the origin's rules);
   * the purchase's actor then runs the saga's connect steps.
   */
  async connect(
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
    const settings = await this.connectSettings(dto, '');
    const { purchase } = await this.send(id, { type: 'connect', workspaceId, settings, requestKey: idempotencyKey });
    const domainId = purchase.connectedDomainId;
    if (!domainId) throw new Error('The purchase actor answered a connect without a Domain');
    const edge = edgeSettingsOf(this.config);
    return { purchase, domain: toDomainView(await this.domains.get(workspaceId, domainId), edge) };
  }

  /** autoConnect's settings (also a connect call's body): an https origin that passes the SSRF rules. */
  private async connectSettings(dto: AutoConnectDto, prefix: string): Promise<AutoConnectSettings> {
    const field = `${prefix}originUrl`;
    const originUrl = dto.originUrl.trim();
    if (!/^https:\/\//i.test(originUrl)) {
      throw new DomainError('bad_request', `${field} must be an https URL`, {
        fields: [{ field, problems: ['must be an https URL'] }],
      });
    }
    await this.origins.check(originUrl, field);
    return { originUrl, keepHost: dto.keepHost ?? false };
  }

  private send<C extends PurchaseCommand>(id: string, command: C) {
    if (!/^pur_[0-9A-Za-z]{1,64}$/.test(id)) throw new DomainError('not_found', 'Purchase was not found');
    return this.actors.ask(purchaseProtocol, id, command, ASK);
  }
}

const NS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A nameserver: a fully qualified hostname of at least two labels, lowercased, no trailing dot. */
export function normalizeNameserver(input: string): string {
  const name = input.trim().toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  if (name.length < 1 || name.length > 253 || labels.length < 2 || !labels.every((l) => NS_LABEL.test(l)))
    throw new Error(`${JSON.stringify(input)} is not a valid hostname`);
  if (/^\d+$/.test(labels[labels.length - 1])) throw new Error(`${JSON.stringify(input)} is an IP address`);
  return name;
}

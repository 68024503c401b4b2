import { Decision, OutboxEvent, ProtocolActor, ProtocolHandlers, ReplyOf, dispatch } from '@app/actors';
import { DomainError, ERROR_CODES, ErrorCode, notFound, publishEdgeInvalidation } from '@app/kernel';
import { Logger } from '@nestjs/common';
import { domainProtocol } from '@app/domains';
import { beginConnect, effectOf, initialSaga, isTerminal, recordRefused, transition } from '../model/purchase.saga';
import { SagaResult } from '../model/purchase-saga.types';
import { Ctx, PurchaseActorDeps, checkpoint } from './purchase-checkpoint';
import { PurchaseEffects, permanentFailure } from './purchase-effects';
import {
  PURCHASE_KIND,
  PurchaseCommand,
  PurchaseOrder,
  PurchaseProtocol,
  PurchaseReply,
} from '../model/purchase.protocol';
import { quotePurchase, registrarFailure } from '../purchase-quote';
import { AutoConnectSettings, PurchaseRecord } from '../model/purchase.record';
import { PurchaseStore } from '../store/purchase.store';
import { toPurchaseView } from '../model/purchase.view';
import { RenewalDriver } from './renewal.driver';

type Result<K extends keyof PurchaseProtocol = keyof PurchaseProtocol> = Decision<
  PurchaseRecord,
  ReplyOf<PurchaseProtocol, K>
>;

/** A connect failure's code as the API's: an unknown one (never expected) is a conflict. */
const errorCodeOf = (code: string): ErrorCode =>
  (ERROR_CODES as readonly string[]).includes(code) ? (code as ErrorCode) : 'conflict';

/**
 * The purchase actor owns the saga of one purchase (SPEC 3.2): every step is persisted before the
 * effect it names, so a node that dies anywhere leaves a step the next owner finishes or
 * compensates (on the next command, or when the node's sweeper resumes it).
 */
export class PurchaseActor implements ProtocolActor<PurchaseRecord, PurchaseProtocol> {
  readonly kind = PURCHASE_KIND;
  readonly store = new PurchaseStore();
  private readonly logger = new Logger(PurchaseActor.name);
  private readonly effects: PurchaseEffects;
  private readonly renewals: RenewalDriver;

  constructor(private readonly deps: PurchaseActorDeps) {
    this.effects = new PurchaseEffects(deps);
    this.renewals = new RenewalDriver(deps, this.effects);
  }

  async handle(ctx: Ctx, command: PurchaseCommand): Promise<Decision<PurchaseRecord, PurchaseReply>> {
    if (command.type === 'create' && !ctx.state) return this.create(ctx, command.workspaceId, command.order);
    let record = ctx.state;
    if (!record || ('workspaceId' in command && record.workspaceId !== command.workspaceId)) throw notFound('Purchase');
    // Whatever the command, an unfinished saga (crash, handoff, outage) goes on first.
    record = await this.drive(ctx, record);
    record = await this.renewals.resume(ctx, record);
    return dispatch(this.handlers, ctx, command, record);
  }

  /** Each command on an existing purchase, after its unfinished saga went on (`record`). */
  private readonly handlers: ProtocolHandlers<PurchaseRecord, PurchaseProtocol, PurchaseRecord> = {
    create: async (_ctx, _command, record) => this.answer(record),
    resume: async (_ctx, _command, record) => ({
      reply: { purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers) },
    }),
    set_auto_renew: async (ctx, command, record) => {
      const state = { ...record, autoRenew: command.autoRenew, retryAt: undefined, updatedAt: ctx.now().toISOString() };
      return { state, reply: { purchase: toPurchaseView(state, this.deps.registrar.defaultNameservers) } };
    },
    renew: (ctx, command, record) =>
      this.renewals.renew(ctx, this.completed(record), command.years, false, command.requestKey, command.maxTotalCents),
    auto_renew: (ctx, command, record) => this.renewals.autoRenew(ctx, record, command.renewDays),
    set_nameservers: (ctx, command, record) => this.nameservers(ctx, this.completed(record), command.nameservers),
    connect: (ctx, command, record) => this.connect(ctx, record, command.settings, command.requestKey),
  };

  private async create(ctx: Ctx, workspaceId: string, order: PurchaseOrder): Promise<Result<'create'>> {
    const price = await quotePurchase(this.deps.db, this.deps.registrar, this.deps.fees, order);
    const now = ctx.now().toISOString();
    const record: PurchaseRecord = {
      id: ctx.id,
      workspaceId,
      hostname: order.hostname,
      years: order.years,
      wholesaleCents: price.wholesaleCents,
      feeCents: price.feeCents,
      totalCents: price.totalCents,
      currency: 'USD',
      registrar: this.deps.registrar.name,
      registrant: order.registrant,
      whoisPrivacyEnabled: order.whoisPrivacy,
      autoRenew: order.autoRenew,
      customerReference: order.customerReference,
      autoConnect: order.autoConnect,
      saga: initialSaga(order.autoConnect !== undefined),
      renewals: [],
      nameservers: [],
      createdAt: now,
      updatedAt: now,
    };
    // The insert: a simultaneous purchase of the same hostname loses here, before any charge.
    await ctx.save(record);
    this.deps.steps.reached(record.saga.step);
    return this.answer(await this.drive(ctx, record));
  }

  /**
   * Runs the saga's effects, persisting each outcome, until it ends or waits for a provider. An
   * outcome the database refuses for good (a data error, not an outage) ends the saga through its
   * compensation from the last recorded state (`recordRefused`) instead of failing every retry.
   */
  private async drive(ctx: Ctx, start: PurchaseRecord): Promise<PurchaseRecord> {
    let record = start;
    for (let effect = effectOf(record.saga); effect; effect = effectOf(record.saga)) {
      const event = await this.effects.run(effect, record);
      this.deps.steps.reached(`after:${effect}`);
      let next = transition(record.saga, event);
      try {
        record = await this.record(ctx, record, next);
      } catch (error) {
        const reason = permanentFailure(error);
        if (!reason) throw error;
        this.logger.error({ purchaseId: record.id, effect, reason }, 'Purchase step cannot be recorded; compensating');
        next = recordRefused(record.saga, next.state, effect, reason);
        record = await this.record(ctx, record, next);
      }
      this.deps.steps.reached(next.state.step);
      if (next.retryLater) break;
    }
    return record;
  }

  /** A checkpoint of the saga's next state with its outbox events. */
  private record(ctx: Ctx, record: PurchaseRecord, next: SagaResult): Promise<PurchaseRecord> {
    const moved = { ...record, saga: next.state };
    return checkpoint(
      ctx,
      moved,
      next.events.map((type) => this.outbox(type, moved)),
    );
  }

  private outbox(type: string, record: PurchaseRecord, extra: Record<string, unknown> = {}): OutboxEvent {
    return {
      type,
      workspaceId: record.workspaceId,
      data: { purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers), ...extra },
    };
  }

  /** The answer to a create (also to its retries): 201, 402, 502, or 503 while a provider is down. */
  private answer(record: PurchaseRecord): Result<'create'> {
    const { saga } = record;
    const details = { purchaseId: record.id, reason: saga.failure?.reason, stage: saga.failure?.stage };
    if (saga.status === 'completed')
      return { reply: { purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers) } };
    if (saga.failure?.code === 'bad_request' && (saga.status === 'failed' || saga.status === 'refunded')) {
      const money = saga.status === 'refunded' ? 'the charge was refunded' : 'nothing was charged';
      throw new DomainError('bad_request', `The purchase failed: ${saga.failure.reason}; ${money}`, details);
    }
    if (saga.status === 'failed')
      throw new DomainError('billing_required', `The card was not charged: ${saga.failure?.reason}`, details);
    if (saga.status === 'refunded') {
      const what = saga.failure?.stage === 'autoConnect' ? 'Connecting the domain' : 'The registrar';
      throw new DomainError(
        'registration_failed',
        `${what} failed (${saga.failure?.reason}); the charge was refunded`,
        details,
      );
    }
    const reason = saga.outage ?? 'a provider is unavailable';
    throw new DomainError(
      'service_unavailable',
      `The purchase is pending (${saga.step}): ${reason}; it is retried automatically`,
      { purchaseId: record.id, step: saga.step },
    );
  }

  private completed(record: PurchaseRecord): PurchaseRecord {
    if (!isTerminal(record.saga) || record.saga.status !== 'completed')
      throw new DomainError('conflict', `The purchase is ${record.saga.step}, not completed`, {
        purchaseId: record.id,
        status: record.saga.status,
      });
    return record;
  }

  /**
   * A connect call (SPEC 4.3 rule 3): the autoConnect steps of the saga on a completed purchase. The
   * mailbox runs one command at a time, so of two simultaneous calls the second finds it connected.
   */
  private async connect(
    ctx: Ctx,
    record: PurchaseRecord,
    settings: AutoConnectSettings,
    requestKey?: string,
  ): Promise<Result<'connect'>> {
    if (record.saga.connectCall) return this.connectAnswer(record);
    const { saga } = this.completed(record);
    if (requestKey && saga.connectRequestKey === requestKey) return this.connectAnswer(record);
    // A Domain the customer deleted since no longer connects the purchase.
    if (saga.connectedDomainId && (await this.effects.domainExists(saga.connectedDomainId)))
      throw new DomainError('conflict', `${record.hostname} is already connected as ${saga.connectedDomainId}`, {
        purchaseId: record.id,
        domainId: saga.connectedDomainId,
        hostname: record.hostname,
      });
    // SPEC 4.3 rule 6: the registrar's records would not apply (as the DNS endpoints answer).
    if (record.nameservers.length)
      throw new DomainError(
        'conflict',
        'The domain uses custom nameservers, so the registrar DNS records would not apply; set an empty nameserver list first',
        { purchaseId: record.id, nameservers: record.nameservers },
      );
    const started = await checkpoint(ctx, { ...record, autoConnect: settings, saga: beginConnect(saga, requestKey) });
    this.deps.steps.reached(started.saga.step);
    return this.connectAnswer(await this.drive(ctx, started));
  }

  /** 200 connected; the rolled-back failure's error; 503 while a provider outage holds a step. */
  private connectAnswer(record: PurchaseRecord): Result<'connect'> {
    const { saga } = record;
    if (saga.step === 'completed' && saga.connectFailure) {
      const { code, reason, details } = saga.connectFailure;
      throw new DomainError(errorCodeOf(code), `Connecting ${record.hostname} failed and was undone: ${reason}`, {
        ...details,
        purchaseId: record.id,
      });
    }
    if (saga.step === 'completed')
      return { reply: { purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers) } };
    const reason = saga.outage ?? 'a provider is unavailable';
    throw new DomainError(
      'service_unavailable',
      `Connecting ${record.hostname} is pending (${saga.step}): ${reason}; it is retried automatically`,
      { purchaseId: record.id, step: saga.step },
    );
  }

  /**
   * The connected domain asks its owner for records again once custom nameservers take the DNS away
   * (and for nothing once it is back on ours). A deleted domain has nothing to be told.
   */
  private async tellDomainWhoseDns(record: PurchaseRecord, nameservers: string[]): Promise<void> {
    const domainId = record.saga.connectedDomainId;
    if (!domainId) return;
    const registrarDns = nameservers.length ? null : { purchaseId: record.id };
    const command = { type: 'registrar_dns' as const, workspaceId: record.workspaceId, registrarDns };
    const told = await this.deps.actors.ask(domainProtocol, domainId, command).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError && error.code === 'not_found') return false;
        throw error;
      },
    );
    // Every api's cached view of the domain is dropped (the domain's writers tell them after a commit).
    if (told) publishEdgeInvalidation(this.deps.bus, record.hostname);
  }

  private async nameservers(
    ctx: Ctx,
    record: PurchaseRecord,
    nameservers: string[],
  ): Promise<Result<'set_nameservers'>> {
    await this.deps.registrar.setNameservers(record.hostname, nameservers).catch(registrarFailure);
    await this.tellDomainWhoseDns(record, nameservers);
    const state = { ...record, nameservers, updatedAt: ctx.now().toISOString() };
    // The answer and every later read name the same list: the custom ones, else the registrar's own.
    const purchase = toPurchaseView(state, this.deps.registrar.defaultNameservers);
    return { state, reply: { purchase, nameservers: purchase.nameservers } };
  }
}

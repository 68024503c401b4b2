import { Decision, ProtocolActor, ProtocolHandlers, dispatch } from '@app/actors';
import {
  completedRecord,
  connectAnswer,
  createAnswer,
  decideAutoRenew,
  decideConnect,
  decideCreate,
  decideNameservers,
  liveRecord,
} from '../model/purchase.decider';
import { PURCHASE_KIND, PurchaseCommand, PurchaseProtocol, PurchaseReply } from '../model/purchase.protocol';
import { PurchaseRecord } from '../model/purchase.record';
import { toPurchaseView } from '../model/purchase.view';
import { PurchaseStore } from '../store/purchase.store';
import { Ctx, PurchaseActorDeps, checkpoint, purchaseEnv } from './purchase-checkpoint';
import { PurchaseEffects } from './purchase-effects';
import { PurchaseInputs } from './purchase-inputs';
import { PurchaseSagaDriver } from './purchase-saga.driver';
import { RenewalDriver } from './renewal.driver';

/**
 * The purchase actor owns the saga of one purchase (SPEC 3.2): a small runner of the pure decider
 * (model/purchase.decider.ts). It gathers what a decision asks for first (the live price, whether a
 * Domain exists), writes the saga a decision starts and drives it step by step, every step persisted
 * before the effect it names (so a node that dies anywhere leaves a step the next owner finishes or
 * compensates), and carries out a command's effects (new nameservers) before its state is stored.
 * Everything it knows is in the record: an actor re-created on another node answers the same.
 */
export class PurchaseActor implements ProtocolActor<PurchaseRecord, PurchaseProtocol> {
  readonly kind = PURCHASE_KIND;
  readonly store = new PurchaseStore();
  private readonly effects: PurchaseEffects;
  private readonly inputs: PurchaseInputs;
  private readonly saga: PurchaseSagaDriver;
  private readonly renewals: RenewalDriver;

  constructor(private readonly deps: PurchaseActorDeps) {
    this.effects = new PurchaseEffects(deps);
    this.inputs = new PurchaseInputs(deps);
    this.saga = new PurchaseSagaDriver(deps, this.effects);
    this.renewals = new RenewalDriver(deps, this.effects, this.inputs);
  }

  async handle(ctx: Ctx, command: PurchaseCommand): Promise<Decision<PurchaseRecord, PurchaseReply>> {
    if (command.type === 'create' && !ctx.state) {
      const { start } = await this.inputs.decide((answers) => decideCreate(command, this.env(ctx), answers));
      // The insert: a simultaneous purchase of the same hostname loses here, before any charge.
      await ctx.save(start);
      return createAnswer(await this.startSaga(ctx, start), this.env(ctx));
    }
    // Whatever the command, an unfinished saga (crash, handoff, outage) goes on first.
    const record = await this.renewals.resume(ctx, await this.saga.drive(ctx, liveRecord(ctx.state, command)));
    return dispatch(this.handlers, ctx, command, record);
  }

  /** Each command on an existing purchase, after its unfinished saga went on (`record`). */
  private readonly handlers: ProtocolHandlers<PurchaseRecord, PurchaseProtocol, PurchaseRecord> = {
    create: async (ctx, _command, record) => createAnswer(record, this.env(ctx)),
    resume: async (_ctx, _command, record) => ({
      reply: { purchase: toPurchaseView(record, this.deps.registrar.defaultNameservers) },
    }),
    set_auto_renew: async (ctx, command, record) => decideAutoRenew(record, command, this.env(ctx)),
    renew: (ctx, command, record) => this.renewals.renew(ctx, completedRecord(record), { ...command, auto: false }),
    auto_renew: (ctx, command, record) => this.renewals.autoRenew(ctx, record, command.renewDays),
    set_nameservers: async (ctx, command, record) => {
      const { decision, effects } = decideNameservers(record, command, this.env(ctx));
      for (const effect of effects) await this.effects.carryOut(effect);
      return decision;
    },
    connect: async (ctx, command, record) => {
      const outcome = await this.inputs.decide((answers) => decideConnect(record, command, this.env(ctx), answers));
      if (!('start' in outcome)) return outcome;
      const started = await checkpoint(ctx, outcome.start);
      return connectAnswer(await this.startSaga(ctx, started), this.env(ctx));
    },
  };

  /** The saga a decision started (its first step is written): runs until it ends or waits for a provider. */
  private startSaga(ctx: Ctx, started: PurchaseRecord): Promise<PurchaseRecord> {
    this.deps.steps.reached(started.saga.step);
    return this.saga.drive(ctx, started);
  }

  private env(ctx: Ctx) {
    return purchaseEnv(ctx, this.deps);
  }
}

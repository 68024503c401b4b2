import { ActorContext, OutboxEvent } from '@app/actors';
import { Registrar } from '@app/registrar';
import { PurchaseEnv } from '../model/purchase-decisions.types';
import { FeePolicy } from '../model/purchase-pricing';
import { PurchaseEffectDeps } from './purchase-effects';
import { PurchaseRecord } from '../model/purchase.record';
import { SagaStepListener } from '../saga-step-listener';

export type Ctx = ActorContext<PurchaseRecord>;

export interface PurchaseActorDeps extends PurchaseEffectDeps {
  registrar: Registrar;
  fees: FeePolicy;
  steps: SagaStepListener;
}

/** A checkpoint: the record with its outbox events, persisted before the next external effect. */
export async function checkpoint(
  ctx: Ctx,
  record: PurchaseRecord,
  events: OutboxEvent[] = [],
): Promise<PurchaseRecord> {
  const saved = { ...record, updatedAt: ctx.now().toISOString() };
  await ctx.save(saved, events);
  return saved;
}

/** Read afresh for every decision: a lookup before it may have taken a while. */
export function purchaseEnv(ctx: Ctx, deps: PurchaseActorDeps): PurchaseEnv {
  const { fees, registrar } = deps;
  return {
    id: ctx.id,
    now: ctx.now(),
    fees,
    registrar: registrar.name,
    registrarNameservers: registrar.defaultNameservers,
  };
}

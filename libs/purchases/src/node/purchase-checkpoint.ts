import { ActorContext, OutboxEvent } from '@app/actors';
import { Registrar } from '@app/registrar';
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

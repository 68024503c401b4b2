import { ActorContext, OutboxEvent } from '@app/actors';
import { Registrar } from '@app/registrar';
import { CrashSeam } from '../crash-seam';
import { FeePolicy } from '../model/purchase-pricing';
import { PurchaseEffectDeps } from './purchase-effects';
import { PurchaseRecord } from '../model/purchase.record';

export type Ctx = ActorContext<PurchaseRecord>;

export interface PurchaseActorDeps extends PurchaseEffectDeps {
  registrar: Registrar;
  fees: FeePolicy;
  crash: CrashSeam;
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

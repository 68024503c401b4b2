import type { Decision, OutboxEvent, ReplyOf } from '@app/kernel';
import { DomainError } from '@app/kernel';
import { Need, PurchaseAnswers, PurchaseEnv, SagaStart } from './purchase-decisions.types';
import { priceChanged, priceWithFee } from './purchase-pricing';
import { PurchaseProtocol } from './purchase.protocol';
import { PurchaseRecord } from './purchase.record';
import { currentExpiry, toPurchaseView, toRenewalView } from './purchase.view';
import { RENEWAL_DONE, RenewalState } from './renewal.saga';

/**
 * Renewals of a completed purchase, decided without I/O: whether one is due, the renewal to start
 * (or the earlier one a retried request names), what its steps write and what the caller is told.
 * The steps themselves are `renewalTransition` in renewal.saga.ts.
 */
type Result<K extends keyof PurchaseProtocol> = Decision<PurchaseRecord, ReplyOf<PurchaseProtocol, K>>;

/** After a failed automatic renewal the job tries again this much later (until the domain lapses). */
const AUTO_RETRY_MS = 24 * 3_600_000;

export interface RenewalRequest {
  years: number;
  auto: boolean;
  requestKey?: string;
  maxTotalCents?: number;
}

/** The latest renewal, when it is unfinished (a crash or an outage left it). */
export function unfinishedRenewal(record: PurchaseRecord): RenewalState | undefined {
  const last = record.renewals[record.renewals.length - 1];
  return last && !RENEWAL_DONE.includes(last.step) ? last : undefined;
}

/** The auto-renew job renews only a completed purchase with autoRenew on, near expiry, not waiting out a failure. */
export function autoRenewalDue(record: PurchaseRecord, renewDays: number, now: Date): boolean {
  const expiry = currentExpiry(record);
  const due = expiry !== undefined && Date.parse(expiry) - now.getTime() <= renewDays * 86_400_000;
  const waiting = record.retryAt !== undefined && Date.parse(record.retryAt) > now.getTime();
  return record.saga.status === 'completed' && record.autoRenew && due && !waiting;
}

/**
 * A renewal: the one a retried request (same `requestKey`) started, or a new one at the live price,
 * refused above the price the caller confirmed before anything is written or charged.
 */
export function decideRenewal(
  record: PurchaseRecord,
  request: RenewalRequest,
  env: PurchaseEnv,
  answers: PurchaseAnswers,
): Need | SagaStart | { answered: RenewalState } {
  const { years, auto, requestKey, maxTotalCents } = request;
  const same = requestKey ? record.renewals.find((r) => r.requestKey === requestKey) : undefined;
  if (same) return { answered: same };
  const previousExpiresAt = currentExpiry(record);
  if (!previousExpiresAt) throw new DomainError('conflict', 'The purchase has no expiry to extend');
  if (answers.renewalWholesaleCents === undefined)
    return { need: { type: 'renewal_price', hostname: record.hostname, years } };
  const price = priceWithFee(answers.renewalWholesaleCents, env.fees);
  if (maxTotalCents !== undefined && price.totalCents > maxTotalCents)
    throw priceChanged(price.totalCents, maxTotalCents);
  const renewal: RenewalState = {
    n: record.renewals.length + 1,
    years,
    wholesaleCents: price.wholesaleCents,
    feeCents: price.feeCents,
    totalCents: price.totalCents,
    auto,
    step: 'charging',
    previousExpiresAt,
    requestKey,
    createdAt: env.now.toISOString(),
  };
  return { start: { ...record, renewals: [...record.renewals, renewal] } };
}

/** A renewal step's record: a renewed one ends any wait of the auto-renew job. */
export function withRenewalStep(record: PurchaseRecord, next: RenewalState): PurchaseRecord {
  const renewals = record.renewals.map((r, i) => (i === record.renewals.length - 1 ? next : r));
  return { ...record, renewals, retryAt: next.step === 'renewed' ? undefined : record.retryAt };
}

/** A failed automatic renewal (not one paused by an outage) waits a day before the job tries again. */
export function autoRetryAfter(renewal: RenewalState, paused: boolean, now: Date): string | undefined {
  if (!renewal.auto || renewal.step === 'renewed' || paused) return undefined;
  return new Date(now.getTime() + AUTO_RETRY_MS).toISOString();
}

/** The outcome event of a finished renewal step, with `operation: "renewal"`; none before the end. */
export function renewalEvents(record: PurchaseRecord, renewal: RenewalState, env: PurchaseEnv): OutboxEvent[] {
  if (!RENEWAL_DONE.includes(renewal.step)) return [];
  const type = renewal.step === 'renewed' ? 'domain_purchase.completed' : 'domain_purchase.failed';
  // The renewal as the renew answer shows it, and why a failed one failed (charge ids stay inside).
  const shown = { ...toRenewalView(renewal), failure: renewal.failure ?? null };
  const purchase = toPurchaseView(record, env.registrarNameservers);
  return [{ type, workspaceId: record.workspaceId, data: { purchase, operation: 'renewal', renewal: shown } }];
}

export function renewalAnswer(
  record: PurchaseRecord,
  renewal: RenewalState,
  env: PurchaseEnv,
  paused = false,
): Result<'renew'> {
  const details = {
    purchaseId: record.id,
    hostname: record.hostname,
    renewal: renewal.n,
    reason: renewal.failure?.reason,
  };
  if (renewal.step === 'renewed')
    return {
      reply: { purchase: toPurchaseView(record, env.registrarNameservers), renewal: toRenewalView(renewal) },
    };
  if (renewal.step === 'failed')
    throw new DomainError('billing_required', `The card was not charged: ${renewal.failure?.reason}`, details);
  if (renewal.step === 'refunded')
    throw new DomainError(
      'registrar_error',
      `The registrar refused the renewal (${renewal.failure?.reason}); the charge was refunded`,
      details,
    );
  throw new DomainError(
    'service_unavailable',
    `The renewal is pending (${renewal.step}${paused ? ', a provider is unavailable' : ''}); it is retried automatically`,
    details,
  );
}

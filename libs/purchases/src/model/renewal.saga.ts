/**
 * One renewal of a purchased domain (manual or automatic), pure like the purchase saga: charge
 * (`purchase:<id>:renew:<n>`), renew at the registrar, done; a refusal refunds. Each step is
 * persisted before its effect runs.
 */
export const RENEWAL_STEPS = ['charging', 'renewing', 'refunding', 'renewed', 'failed', 'refunded'] as const;
export type RenewalStep = (typeof RENEWAL_STEPS)[number];
export type RenewalEffect = 'charge' | 'renew' | 'refund';

/** Why a renewal failed: the card was declined, or the registrar refused (refunded). */
export const RENEWAL_FAILURE_CODES = ['billing_required', 'registrar_error'] as const;
type RenewalFailureCode = (typeof RENEWAL_FAILURE_CODES)[number];

export interface RenewalState {
  /** 1 for the first renewal of this purchase: part of its idempotency keys. */
  n: number;
  years: number;
  wholesaleCents: number;
  feeCents: number;
  totalCents: number;
  auto: boolean;
  step: RenewalStep;
  /** The expiry before this renewal: recovery compares the registrar's with it before renewing again. */
  previousExpiresAt: string;
  expiresAt?: string;
  chargeId?: string;
  refundId?: string;
  failure?: { code: RenewalFailureCode; reason: string };
  /** The Idempotency-Key of the request that asked for it: a retry answers this renewal. */
  requestKey?: string;
  createdAt: string;
}

export type RenewalEvent =
  | { type: 'charged'; chargeId: string }
  | { type: 'charge_declined'; reason: string }
  | { type: 'renewed'; expiresAt: string }
  | { type: 'renewal_refused'; reason: string }
  | { type: 'refunded'; refundId: string };

export const RENEWAL_DONE: readonly RenewalStep[] = ['renewed', 'failed', 'refunded'];

export function renewalEffect(state: RenewalState): RenewalEffect | undefined {
  if (state.step === 'charging') return 'charge';
  if (state.step === 'renewing') return 'renew';
  if (state.step === 'refunding') return 'refund';
  return undefined;
}

/** Outcomes that do not fit the step change nothing; finished renewals are final. */
export function renewalTransition(state: RenewalState, event: RenewalEvent): RenewalState {
  switch (state.step) {
    case 'charging':
      if (event.type === 'charged') return { ...state, step: 'renewing', chargeId: event.chargeId };
      if (event.type === 'charge_declined')
        return { ...state, step: 'failed', failure: { code: 'billing_required', reason: event.reason } };
      return state;
    case 'renewing':
      if (event.type === 'renewed') return { ...state, step: 'renewed', expiresAt: event.expiresAt };
      if (event.type === 'renewal_refused')
        return { ...state, step: 'refunding', failure: { code: 'registrar_error', reason: event.reason } };
      return state;
    case 'refunding':
      if (event.type === 'refunded') return { ...state, step: 'refunded', refundId: event.refundId };
      return state;
    case 'renewed':
    case 'failed':
    case 'refunded':
      return state;
  }
}

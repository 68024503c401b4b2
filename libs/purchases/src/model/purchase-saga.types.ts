/** SPEC 3.2: `failed` means no money moved; `refunded` means charged and refunded (DESIGN decision 1). */
export const PURCHASE_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * Where the saga stands; each step is persisted before the external effect it names runs, so a
 * node that dies anywhere leaves a step that says what to do (or undo) next.
 */
export type SagaStep =
  /** Quoted and written; the card is charged next (idempotency key `purchase:<id>:charge`). */
  | 'charging'
  /** Charged; the registrar registers next (after asking whether it already did). */
  | 'registering'
  /** Registered, autoConnect asked for: the Domain is created next. */
  | 'connecting'
  /** The Domain exists: the registrar's routing records at `@` and `www` are set next. */
  | 'routing'
  /** autoConnect failed after the Domain was created: it is removed next. */
  | 'disconnecting'
  /** Charged but the purchase cannot complete: the charge is refunded next. */
  | 'refunding'
  | 'completed'
  | 'failed'
  | 'refunded';

export const TERMINAL_STEPS: readonly SagaStep[] = ['completed', 'failed', 'refunded'];

/**
 * Why a purchase ended without completing: the API error it answers with. `bad_request`: a step's
 * outcome held a value the database can never store (a permanent error, not an outage).
 */
export interface SagaFailure {
  code: 'billing_required' | 'registration_failed' | 'bad_request';
  /** Which step failed: shown to the caller with the reason. */
  stage: 'charge' | 'register' | 'autoConnect';
  reason: string;
}

export interface SagaState {
  status: PurchaseStatus;
  step: SagaStep;
  autoConnect: boolean;
  chargeId?: string;
  registrarDomainId?: string;
  expiresAt?: string;
  connectedDomainId?: string;
  refundId?: string;
  /** Registrar outages so far; after `MAX_REGISTER_ATTEMPTS` the purchase is refunded. */
  registerAttempts: number;
  failure?: SagaFailure;
  /**
   * Why the current step waits for a retry: the outage its last attempt met, which a 503 names. In
   * the snapshot so that the node a shard moves to answers the same; cleared when the saga moves on.
   * Optional: snapshots written before it existed have none.
   */
  outage?: string;
  /**
   * A connect call (SPEC 4.3 rule 3) is running the autoConnect steps on this completed purchase:
   * its failure rolls back to `completed`, unconnected, and refunds nothing.
   */
  connectCall?: boolean;
  /** Connect calls started so far: each gets a Domain id of its own (a rolled-back one stays deleted). */
  connectAttempts?: number;
  /** The Idempotency-Key of the connect call that connected the purchase: its retry answers the same. */
  connectRequestKey?: string;
  /** Why the latest connect call failed (it was rolled back). */
  connectFailure?: ConnectFailure;
}

/** A failed connect call: the API error it answers with (code from SPEC 7, e.g. conflict, registrar_error). */
export interface ConnectFailure {
  code: string;
  reason: string;
  details?: Record<string, unknown>;
}

/** The external effect a step asks for; the actor runs it and feeds back the outcome as an event. */
export type SagaEffect = 'charge' | 'register' | 'create_domain' | 'set_routing' | 'remove_domain' | 'refund';

export type SagaEvent =
  | { type: 'charged'; chargeId: string }
  | { type: 'charge_declined'; reason: string }
  | { type: 'registered'; registrarDomainId: string; expiresAt: string }
  | { type: 'registration_refused'; reason: string }
  | { type: 'domain_created'; domainId: string }
  | { type: 'routing_set' }
  /** `code` and `details`: the error a connect call answers with (autoConnect refunds instead). */
  | { type: 'connect_failed'; reason: string; code?: string; details?: Record<string, unknown> }
  | { type: 'domain_removed' }
  | { type: 'refunded'; refundId: string }
  /** The provider could not be reached: nothing is known to have changed; the step is retried later. */
  | { type: 'effect_unavailable'; effect: SagaEffect; reason: string }
  /**
   * The step can never succeed (the database refuses a value it needs: a permanent error, not an
   * outage): the saga ends through its compensation instead of retrying.
   */
  | { type: 'effect_failed'; effect: SagaEffect; reason: string };

export type PurchaseEventType = 'domain_purchase.completed' | 'domain_purchase.failed';

export interface SagaResult {
  state: SagaState;
  /** The next effect to run now; none at a terminal step or when the step waits for a retry. */
  effects: SagaEffect[];
  /** Outbox events, written in the same transaction as the state. */
  events: PurchaseEventType[];
  /** A provider was unreachable: the step stays and the sweeper retries it later. */
  retryLater: boolean;
}

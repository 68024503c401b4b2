import { DeliveryStatus } from './delivery.view';
import { nextAttemptAt } from './retry-schedule';

type AttemptKind = 'delivered' | 'http_error' | 'timeout' | 'network_error' | 'blocked' | 'invalid_url';

/** What one HTTP attempt came to. */
export interface SendResult {
  kind: AttemptKind;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** What is written back for a claimed delivery. */
export interface AttemptOutcome {
  id: string;
  claimId: string;
  status: DeliveryStatus;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  /** The next attempt (pending only). */
  nextAttemptAt: Date | null;
  /** 0 when no request was made (the endpoint was disabled). */
  counted: 0 | 1;
}

interface Claim {
  id: string;
  claimId: string;
  attempts: number;
  /** Null when this is the first attempt: it starts the 7-day window. */
  firstAttemptAt: Date | null;
}

/** A 2xx ends the delivery; any other result retries on the schedule, then dead-letters. */
export function decideOutcome(claim: Claim, result: SendResult, startedAt: Date): AttemptOutcome {
  const base = {
    id: claim.id,
    claimId: claim.claimId,
    attemptedAt: startedAt,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    counted: 1 as const,
  };
  if (result.kind === 'delivered') return { ...base, status: 'delivered', nextAttemptAt: null };
  const next = nextAttemptAt(claim.firstAttemptAt ?? startedAt, claim.attempts + 1, startedAt);
  return next
    ? { ...base, status: 'pending', nextAttemptAt: next }
    : { ...base, status: 'dead_lettered', nextAttemptAt: null };
}

/** Deliveries of an endpoint disabled since they were created are dead-lettered unsent (replayable). */
export function disabledOutcome(claim: Claim, now: Date): AttemptOutcome {
  return {
    id: claim.id,
    claimId: claim.claimId,
    status: 'dead_lettered',
    attemptedAt: now,
    statusCode: null,
    error: 'endpoint disabled: not sent',
    durationMs: null,
    nextAttemptAt: null,
    counted: 0,
  };
}

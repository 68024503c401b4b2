/**
 * What a failed order means and what happens next, decided from the CA's problem type (RFC 8555
 * section 6.7), never from the wording of its message. Pure: the caller describes the error.
 */
export type FailureCode =
  /** The CA asked us to slow down (rateLimited); another CA may be tried. */
  | 'ca_rate_limited'
  /** The CA refused this hostname by policy or CAA (rejectedIdentifier, caa, ...); another CA may be tried. */
  | 'ca_refused'
  /** Our account at the CA is not accepted (missing or wrong External Account Binding, ...): the operator's to fix. */
  | 'ca_account'
  /** The CA could not be reached or failed itself (network, 5xx, serverInternal, timeouts). */
  | 'ca_unavailable'
  /** The CA could not validate the hostname (HTTP-01 failed): the customer's DNS or network, not the CA. */
  | 'validation_failed'
  /** Anything else the CA answered. */
  | 'ca_error'
  /** Our side failed (storing the certificate, the database): no other CA would help. */
  | 'internal_error';

export interface IssuanceError {
  /** `problem`: an RFC 8555 problem document; `network`: no answer at all; `internal`: our own failure. */
  source: 'problem' | 'network' | 'internal';
  /** Problem types without the `urn:ietf:params:acme:error:` prefix, the top one first. */
  kinds: string[];
  status?: number;
  detail: string;
  /** `account registration`, `new order`, `validation of <name>`, `finalization`, ... */
  step?: string;
  retryAfter?: Date;
  /** ECONNREFUSED, ETIMEDOUT, ... for network errors. */
  networkCode?: string;
}

export interface IssuanceFailure {
  code: FailureCode;
  /** Whether the next CA in the list should be tried now (the fault lies with this CA or our account there). */
  tryNextIssuer: boolean;
  /** Earliest next order at this CA. */
  retryAt: Date;
  detail: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const VALIDATION = new Set(['connection', 'dns', 'incorrectResponse', 'tls', 'unauthorized', 'caa']);
const REFUSAL = new Set(['rejectedIdentifier', 'unsupportedIdentifier', 'caa', 'unauthorized']);
const ACCOUNT = new Set(['externalAccountRequired', 'accountDoesNotExist', 'badPublicKey', 'userActionRequired']);

/** Back-off for retries after an outage or a failed validation: 1, 2, 4 ... 60 minutes by attempt. */
export function retryBackoffMs(attempt: number, baseMs = MINUTE, maxMs = HOUR): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), maxMs);
}

export function classifyIssuanceError(error: IssuanceError, attempt: number, now: Date): IssuanceFailure {
  const at = (ms: number) => new Date(now.getTime() + ms);
  const asked = error.retryAfter && error.retryAfter.getTime() > now.getTime() ? error.retryAfter : undefined;
  const failure = (code: FailureCode, tryNextIssuer: boolean, fallbackMs: number): IssuanceFailure => ({
    code,
    tryNextIssuer,
    retryAt: asked ?? at(fallbackMs),
    detail: error.detail,
  });
  if (error.source === 'network') return failure('ca_unavailable', true, retryBackoffMs(attempt));
  if (error.source === 'internal') return failure('internal_error', false, retryBackoffMs(attempt));
  const kinds = new Set(error.kinds);
  const validating = error.step?.startsWith('validation') ?? false;
  if (kinds.has('rateLimited')) return failure('ca_rate_limited', true, HOUR);
  if (validating && error.kinds.some((kind) => VALIDATION.has(kind)))
    // A CAA refusal at validation time is the CA's view of the customer's CAA: another CA may be allowed.
    return kinds.has('caa')
      ? failure('ca_refused', true, HOUR)
      : failure('validation_failed', false, retryBackoffMs(attempt, 5 * MINUTE));
  if (error.step === 'account registration' || error.kinds.some((kind) => ACCOUNT.has(kind)))
    return failure('ca_account', true, HOUR);
  if (error.kinds.some((kind) => REFUSAL.has(kind))) return failure('ca_refused', true, HOUR);
  if (kinds.has('serverInternal') || (error.status ?? 0) >= 500 || error.status === 408)
    return failure('ca_unavailable', true, retryBackoffMs(attempt));
  return failure('ca_error', true, retryBackoffMs(attempt, 5 * MINUTE));
}

import type { IssuanceError } from '../model/issuance-failure';
import { AcmeNetworkError, AcmeProblem } from './acme-problem';

/** The plain description the pure classifier reads, from whatever an order threw. */
export function describeAcmeError(error: unknown): IssuanceError {
  if (error instanceof AcmeProblem)
    return {
      source: 'problem',
      kinds: error.kinds(),
      status: error.status,
      detail: error.message,
      step: error.step,
      retryAfter: error.retryAfter,
    };
  if (error instanceof AcmeNetworkError)
    return { source: 'network', kinds: [], detail: error.message, networkCode: error.code };
  // Our own failure (the database, a bug): reported as such, retried on a back-off, no other CA tried.
  const detail = error instanceof Error ? error.message : String(error);
  return { source: 'internal', kinds: [], detail };
}

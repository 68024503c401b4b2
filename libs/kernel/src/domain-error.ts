/** Every machine-readable error code the API answers with (SPEC section 7 and DESIGN decisions). */
export const ERROR_CODES = [
  'bad_request',
  'preflight_failed',
  'unauthorized',
  'billing_required',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'unavailable',
  'price_changed',
  'idempotency_in_progress',
  'payload_too_large',
  'idempotency_key_reused',
  'provider_refused',
  'dns_token_invalid',
  'dns_token_insufficient_scope',
  'dns_zone_not_found',
  'dns_write_refused',
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unsupported_grant_type',
  'rate_limited',
  'internal_error',
  'registration_failed',
  'registrar_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** A failure the caller can act on. Carries no HTTP knowledge: the filter maps codes to statuses. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} was not found`);

import { ErrorCode } from '@app/kernel';

/** The HTTP status of each code; the switch is exhaustive so a new code cannot go unmapped. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'bad_request':
    case 'preflight_failed':
    case 'invalid_request':
    case 'invalid_grant':
    case 'invalid_scope':
    case 'unsupported_grant_type':
      return 400;
    case 'unauthorized':
    case 'invalid_client':
      return 401;
    case 'billing_required':
      return 402;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
    case 'unavailable':
    case 'price_changed':
    case 'idempotency_in_progress':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'idempotency_key_reused':
    case 'provider_refused':
    case 'dns_token_invalid':
    case 'dns_token_insufficient_scope':
    case 'dns_zone_not_found':
    case 'dns_write_refused':
      return 422;
    case 'rate_limited':
      return 429;
    case 'internal_error':
      return 500;
    case 'registration_failed':
    case 'registrar_error':
      return 502;
    case 'service_unavailable':
      return 503;
  }
}

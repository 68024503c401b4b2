import { statusOf } from '@app/http';
import { ERROR_CODES, ErrorCode } from '@app/kernel';
import type { RouteInfo } from './route-scanner';

export { ERROR_CODES };

/**
 * The codes an operation can answer beyond its success, by how the route is declared. `reads`: the
 * operation parses a body or query parameters the route does not declare as a DTO (the OAuth form
 * endpoints, `@Query('token')`). A body
 * sent to an operation that reads none is ignored (http-app.ts), so it adds nothing here.
 */
export function errorCodesOf(
  route: RouteInfo,
  extra: ErrorCode[] = [],
  reads: { body?: boolean; query?: boolean } = {},
): ErrorCode[] {
  const codes = new Set<ErrorCode>(extra);
  const body = !!route.body || !!reads.body;
  if (route.auth !== 'public') codes.add('unauthorized');
  if (route.auth === 'workspace' || route.auth === 'admin') codes.add('forbidden');
  if (body || route.query || reads.query) codes.add('bad_request');
  if (body) codes.add('payload_too_large');
  // A path parameter over 100 characters is 404 (no id is that long), one not valid percent-encoding 400.
  if (route.pathParams.length) {
    codes.add('not_found');
    codes.add('bad_request');
  }
  if (isRateLimited(route)) codes.add('rate_limited');
  if (route.idempotent) {
    codes.add('idempotency_in_progress');
    codes.add('idempotency_key_reused');
  }
  codes.add('internal_error');
  // Any route may meet PostgreSQL away or every pooled connection busy: 503 with Retry-After.
  codes.add('service_unavailable');
  return [...codes];
}

/** Every /v1 route counts against a limit (SPEC section 8). */
export const isRateLimited = (route: RouteInfo): boolean => route.path.startsWith('/v1/');

/** Codes grouped under their HTTP status, as OpenAPI lists responses. */
export function byStatus(codes: ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) groups.set(statusOf(code), [...(groups.get(statusOf(code)) ?? []), code]);
  return new Map([...groups.entries()].sort(([a], [b]) => a - b));
}

/**
 * CORS for what a browser holding a connect-session token may call, and nothing else: the widget script
 * and the session endpoints. Tokens travel in the Authorization header (no cookies), so any origin is safe.
 */
const SESSION_ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/widget\.js$/, methods: ['GET'] },
  { pattern: /^\/v1\/domains\/[^/]+$/, methods: ['GET'] },
  { pattern: /^\/v1\/domains\/[^/]+\/instructions$/, methods: ['GET'] },
  { pattern: /^\/v1\/domains\/[^/]+\/check$/, methods: ['POST'] },
  { pattern: /^\/v1\/domains\/[^/]+\/dns\/apply$/, methods: ['POST'] },
];

export const CORS_ALLOWED_HEADERS = 'authorization, content-type';
export const CORS_EXPOSED_HEADERS =
  'x-service-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after';

/** The methods a browser may use cross-origin on this path (none: no CORS headers at all). Pure. */
export function corsMethodsFor(url: string): string[] {
  const path = url.split('?')[0];
  if (path === '/v1/domains/bulk') return [];
  return SESSION_ROUTES.find((route) => route.pattern.test(path))?.methods ?? [];
}

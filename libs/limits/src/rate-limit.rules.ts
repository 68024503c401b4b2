/** One limit: at most `limit` requests per `windowSeconds` for an action, per key or per client IP. */
export interface RateRule {
  action: string;
  limit: number;
  windowSeconds: number;
  per: 'key' | 'ip';
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** SPEC section 8. The default applies to every authenticated /v1 call; specific ones add to it. */
export const RULES = {
  api: { action: 'api', limit: 60, windowSeconds: MINUTE, per: 'key' },
  domainsCreate: { action: 'domains.create', limit: 100, windowSeconds: HOUR, per: 'key' },
  domainsBulk: { action: 'domains.bulk', limit: 5, windowSeconds: HOUR, per: 'key' },
  domainsCheck: { action: 'domains.check', limit: 60, windowSeconds: MINUTE, per: 'key' },
  checkRecords: { action: 'dns.check_records', limit: 600, windowSeconds: HOUR, per: 'key' },
  toolsMinute: { action: 'tools', limit: 30, windowSeconds: MINUTE, per: 'ip' },
  toolsDay: { action: 'tools.daily', limit: 500, windowSeconds: DAY, per: 'ip' },
} as const satisfies Record<string, RateRule>;

/** The rules a request counts against, from its method and path (query string ignored). Pure. */
export function rulesFor(method: string, url: string): RateRule[] {
  const path = url.split('?')[0].replace(/\/+$/, '');
  if (!path.startsWith('/v1/')) return [];
  if (path.startsWith('/v1/tools/') || path === '/v1/tools') return [RULES.toolsMinute, RULES.toolsDay];
  const rules: RateRule[] = [RULES.api];
  if (method === 'POST' && path === '/v1/domains') rules.push(RULES.domainsCreate);
  if (method === 'POST' && path === '/v1/domains/bulk') rules.push(RULES.domainsBulk);
  if (method === 'POST' && /^\/v1\/domains\/[^/]+\/check$/.test(path)) rules.push(RULES.domainsCheck);
  if (path.startsWith('/v1/dns/check-records')) rules.push(RULES.checkRecords);
  return rules;
}

/** The fixed window a moment falls in, and the seconds until it resets. Pure. */
export function windowOf(nowMs: number, windowSeconds: number): { start: number; resetSeconds: number } {
  const size = windowSeconds * 1000;
  const start = Math.floor(nowMs / size) * size;
  return { start, resetSeconds: Math.max(1, Math.ceil((start + size - nowMs) / 1000)) };
}

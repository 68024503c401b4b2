import { EdgeRoute, SERVED_STATUSES } from './edge-route';
import { PageName } from './pages';
import { RequestTarget, httpsLocation, redirectLocation } from './request-target';

export type Decision =
  | { kind: 'page'; page: PageName }
  | {
      kind: 'redirect';
      status: 301 | 302 | 308;
      location: string;
      outcome: 'https_redirect' | 'www_redirect' | 'redirected';
    }
  | { kind: 'proxy'; originUrl: string; target: RequestTarget; keepHost: boolean };

/**
 * What to answer a request with, given the route of its Host (undefined: no live domain).
 * `scheme` is how the visitor reached the edge: plain HTTP answers every served domain with a
 * redirect to HTTPS; over HTTPS a www twin redirects to its domain and a domain proxies or
 * redirects to its origin. Pure: no I/O, no clock.
 */
export function decide(route: EdgeRoute | undefined, scheme: 'http' | 'https', target: RequestTarget): Decision {
  if (!route) return { kind: 'page', page: 'unknown_host' };
  if (!SERVED_STATUSES.includes(route.status)) return { kind: 'page', page: 'not_active' };
  if (route.twin) {
    return {
      kind: 'redirect',
      status: route.redirectStatus,
      location: httpsLocation(route.hostname, target),
      outcome: 'www_redirect',
    };
  }
  if (scheme === 'http') {
    return {
      kind: 'redirect',
      status: 308,
      location: httpsLocation(route.hostname, target),
      outcome: 'https_redirect',
    };
  }
  if (route.mode === 'redirect') {
    let origin: URL;
    try {
      origin = new URL(route.originUrl);
    } catch {
      return { kind: 'page', page: 'origin_unreachable' };
    }
    return {
      kind: 'redirect',
      status: route.redirectStatus,
      location: redirectLocation(origin, target),
      outcome: 'redirected',
    };
  }
  return { kind: 'proxy', originUrl: route.originUrl, target, keepHost: route.keepHost };
}

import type { DomainStatus, MonitorStatus } from '@app/domains';

/** What the edge knows about a hostname: its live domain, read from `domains`. */
export interface EdgeRoute {
  domainId: string;
  /** The connected hostname. For a www twin it differs from the hostname asked for. */
  hostname: string;
  /** Asked for the www twin of a domain with `redirectWww`: served only as a redirect to `hostname`. */
  twin: boolean;
  /**
   * Served by a wildcard domain (`*.example.com`): `hostname` is then the name asked for, and the
   * certificate (cached, invalidated) is the wildcard's.
   */
  wildcard?: string;
  status: DomainStatus;
  monitorStatus: MonitorStatus;
  mode: 'proxy' | 'redirect';
  originUrl: string;
  keepHost: boolean;
  redirectStatus: 301 | 302;
}

/** Statuses whose traffic is served; failed and expired domains get the "not active" page. */
export const SERVED_STATUSES: readonly DomainStatus[] = ['pending', 'verified'];

/** Whether Caddy's on-demand TLS may get a certificate: a live domain whose DNS points at the edge. */
export function certificateAllowed(route: EdgeRoute | undefined): boolean {
  // A wildcard's names share its DNS-01 certificate: a terminator in front must not order one per name.
  if (!route || route.twin || route.wildcard) return false;
  return route.status === 'verified' || route.monitorStatus === 'pending_ssl' || route.monitorStatus === 'active_ssl';
}

import type { DomainStatus, MonitorStatus } from '@app/domain-model';
import { BoundedCache, wwwTwin } from '@app/kernel';
import { MikroSqlExecutor, type SqlExecutor } from '@app/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { EDGE_OPTIONS } from './edge.options';
import { EdgeRoute } from './edge-route';

interface Row {
  id: string;
  hostname: string;
  status: DomainStatus;
  monitor_status: MonitorStatus;
  origin_url: string;
  mode: string | null;
  keep_host: boolean | null;
  redirect_www: boolean | null;
  redirect_status: number | null;
}

export interface RouteCacheOptions {
  routeTtlMs: number;
  negativeTtlMs: number;
  maxCachedRoutes: number;
}

/**
 * The route of each hostname, read from `domains` (live rows only) and cached per hostname:
 * found routes for `routeTtlMs`, unknown hostnames for `negativeTtlMs`, so a flood of requests
 * for a name nobody connected costs one read per interval. For another `routeTtlMs` after expiry
 * the old answer is still given while one background read refreshes it (no request waits on the
 * database for a hot hostname). `invalidate` drops a hostname and its www twin at once; a wildcard's
 * names are cached under the wildcard, so dropping it drops them all.
 */
@Injectable()
export class RouteStore {
  private readonly cache: BoundedCache<EdgeRoute | null>;

  constructor(
    @Inject(MikroSqlExecutor) private readonly db: SqlExecutor,
    @Inject(EDGE_OPTIONS) private readonly options: RouteCacheOptions,
  ) {
    this.cache = new BoundedCache({ maxEntries: options.maxCachedRoutes, staleMs: options.routeTtlMs });
  }

  /**
   * The hostname's own domain or www twin; else the wildcard one label up (`a.example.com` is served
   * by `*.example.com`, `a.b.example.com` is not). An exact name always wins over a wildcard.
   */
  async get(hostname: string): Promise<EdgeRoute | undefined> {
    const exact = await this.cached(hostname);
    if (exact) return exact;
    const dot = hostname.indexOf('.');
    if (dot === -1 || !hostname.includes('.', dot + 1)) return undefined;
    const wildcard = await this.cached(`*.${hostname.slice(dot + 1)}`);
    return wildcard ? { ...wildcard, hostname, wildcard: wildcard.hostname } : undefined;
  }

  private async cached(hostname: string): Promise<EdgeRoute | undefined> {
    const route = await this.cache.getOrLoad(
      hostname,
      () => this.load(hostname),
      (r) => (r ? this.options.routeTtlMs : this.options.negativeTtlMs),
    );
    return route ?? undefined;
  }

  invalidate(hostname: string): void {
    this.cache.delete(hostname);
    const twin = wwwTwin(hostname);
    if (twin) this.cache.delete(twin);
  }

  clear(): void {
    this.cache.clear();
  }

  private async load(hostname: string): Promise<EdgeRoute | null> {
    const twin = wwwTwin(hostname) ?? hostname;
    const rows = await this.db.query<Row>(
      `select id, hostname, status, monitor_status, state->>'originUrl' as origin_url, state->>'mode' as mode,
              (state->>'keepHost')::boolean as keep_host, (state->>'redirectWww')::boolean as redirect_www,
              (state->>'redirectStatus')::int as redirect_status
         from domains where deleted_at is null and released_at is null and hostname in (?, ?)`,
      [hostname, twin],
    );
    const exact = rows.find((r) => r.hostname === hostname);
    if (exact) return toRoute(exact, false);
    const pair = rows.find((r) => r.hostname === twin && r.redirect_www === true);
    return pair ? toRoute(pair, true) : null;
  }
}

function toRoute(row: Row, twin: boolean): EdgeRoute {
  return {
    domainId: row.id,
    hostname: row.hostname,
    twin,
    status: row.status,
    monitorStatus: row.monitor_status,
    mode: row.mode === 'redirect' ? 'redirect' : 'proxy',
    originUrl: row.origin_url,
    keepHost: row.keep_host === true,
    redirectStatus: row.redirect_status === 302 ? 302 : 301,
  };
}

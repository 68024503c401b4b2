import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { EDGE_INVALIDATE_SUBJECT, EdgeSettings, edgeSettingsOf, invalidatedHostname, notFound } from '@app/kernel';
import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainHotReads } from '../store/domain-hot.reads';
import { DomainViewCache } from './domain-view.cache';
import { DomainView, toDomainView } from '../model/domain.view';

/** Flat memory at any domain count: about 1.5 KB per entry, so some 15 MB at the default. */
const DOMAIN_VIEW_CACHE_ENTRIES = 10_000;
/** A backstop for a lost bus message; invalidations normally arrive within milliseconds. */
const DOMAIN_VIEW_CACHE_TTL_MS = 30_000;

/**
 * `GET /v1/domains/{id}`: the view from the API's cache (DomainViewCache), else one prepared
 * statement scoped by workspace through the pg driver. The commands of this API replica put
 * their answers in (read-your-writes); every writer's `edge.invalidate` drops stale entries.
 */
@Injectable()
export class DomainViews implements OnModuleInit, OnModuleDestroy {
  readonly cache = new DomainViewCache(DOMAIN_VIEW_CACHE_ENTRIES, DOMAIN_VIEW_CACHE_TTL_MS);
  private readonly edge: EdgeSettings;
  private readonly stop: (() => void)[] = [];
  /** Views are replaced, never changed, in the cache: a body serialized once stays right. */
  private readonly bodies = new WeakMap<DomainView, string>();

  constructor(
    private readonly reads: DomainHotReads,
    private readonly bus: Bus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.edge = edgeSettingsOf(config);
  }

  onModuleInit(): void {
    this.stop.push(
      this.bus.subscribe(EDGE_INVALIDATE_SUBJECT, (payload) => {
        const hostname = invalidatedHostname(payload);
        if (hostname) this.cache.invalidateHostname(hostname);
      }),
      // Invalidations sent while disconnected are lost: nothing cached before may be trusted.
      this.bus.onConnectionChange(() => this.cache.clear()),
    );
  }

  onModuleDestroy(): void {
    this.stop.forEach((stop) => stop());
  }

  async get(workspaceId: string, id: string): Promise<DomainView> {
    const cached = this.cache.get(workspaceId, id);
    if (cached) return cached;
    const started = this.cache.readStarted();
    const state = await this.reads.stateOf(workspaceId, id);
    if (!state) throw notFound('Domain');
    const view = toDomainView(state, this.edge);
    this.cache.putRead(workspaceId, view, started);
    return view;
  }

  /** The cached view's answer body (`{"domain": ...}`), serialized once per view; undefined on a miss. */
  cachedBody(workspaceId: string, id: string): string | undefined {
    const view = this.cache.get(workspaceId, id);
    if (!view) return undefined;
    let body = this.bodies.get(view);
    if (body === undefined) this.bodies.set(view, (body = JSON.stringify({ domain: view })));
    return body;
  }

  /** A view a command of this replica got back from the domain's actor (after its commit). */
  written(workspaceId: string, view: DomainView): void {
    this.cache.putWritten(workspaceId, view);
  }

  removed(workspaceId: string, id: string, hostname?: string): void {
    this.cache.forget(workspaceId, id, hostname);
  }
}

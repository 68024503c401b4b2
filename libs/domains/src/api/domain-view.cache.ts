import { BoundedCache, Clock } from '@app/kernel';
import { DomainView } from '../model/domain.view';

const keyOf = (workspaceId: string, id: string) => `${workspaceId}\n${id}`;

/**
 * A bounded LRU of the domain views the API has read or written, keyed by workspace and id, so
 * a GET from another workspace never sees an entry (it misses and its scoped query answers 404).
 *
 * Kept fresh by `edge.invalidate`, which every writer of a domain publishes after its commit (the
 * API's commands, the monitor, certificates, purchases): `invalidateHostname` drops the entry. A
 * read that started before an invalidation of its hostname is not stored (it may hold the old
 * row). The API's own commands put their answer in at once (read-your-writes on this replica).
 * `ttlMs` bounds what a lost bus message could leave stale; the whole cache is dropped when the
 * bus reconnects, since messages may have been missed meanwhile.
 */
export class DomainViewCache {
  private readonly views: BoundedCache<DomainView>;
  /** Which key holds each hostname's view, so an invalidation by hostname finds it. */
  private readonly keysByHostname = new Map<string, string>();
  /** Increases with every invalidation; a read remembers where it started. */
  private seq = 0;
  private readonly invalidatedAt = new Map<string, number>();
  /** Reads that started before this are not stored (the invalidation map was emptied). */
  private floor = 0;

  constructor(
    private readonly maxEntries: number,
    ttlMs: number,
    clock?: Clock,
  ) {
    this.views = new BoundedCache({
      maxEntries,
      ttlMs,
      clock,
      onEvict: (key, view) => this.unindex(key, view.hostname),
    });
  }

  get size(): number {
    return this.views.size;
  }

  get(workspaceId: string, id: string): DomainView | undefined {
    return this.views.get(keyOf(workspaceId, id));
  }

  /** Call before reading the database; pass the result to `putRead`. */
  readStarted(): number {
    return this.seq;
  }

  /** A view read from the database, unless its hostname was invalidated since the read started. */
  putRead(workspaceId: string, view: DomainView, startedAt: number): void {
    if (startedAt < this.floor || (this.invalidatedAt.get(view.hostname) ?? -1) > startedAt) return;
    this.set(workspaceId, view);
  }

  /** The answer of a command this replica just sent (committed by the actor): newer than any read. */
  putWritten(workspaceId: string, view: DomainView): void {
    this.invalidateHostname(view.hostname);
    this.set(workspaceId, view);
  }

  forget(workspaceId: string, id: string, hostname?: string): void {
    if (hostname) this.invalidateHostname(hostname);
    this.drop(keyOf(workspaceId, id));
  }

  invalidateHostname(hostname: string): void {
    this.seq++;
    if (this.invalidatedAt.size >= this.maxEntries) {
      this.invalidatedAt.clear();
      this.floor = this.seq;
    }
    this.invalidatedAt.set(hostname, this.seq);
    const key = this.keysByHostname.get(hostname);
    if (key !== undefined) this.drop(key);
  }

  clear(): void {
    this.seq++;
    this.floor = this.seq;
    this.invalidatedAt.clear();
    this.views.clear();
    this.keysByHostname.clear();
  }

  private set(workspaceId: string, view: DomainView): void {
    const key = keyOf(workspaceId, view.id);
    this.drop(key);
    const previous = this.keysByHostname.get(view.hostname);
    if (previous !== undefined && previous !== key) this.drop(previous);
    this.views.set(key, view);
    this.keysByHostname.set(view.hostname, key);
  }

  private drop(key: string): void {
    const view = this.views.delete(key);
    if (view) this.unindex(key, view.hostname);
  }

  private unindex(key: string, hostname: string): void {
    if (this.keysByHostname.get(hostname) === key) this.keysByHostname.delete(hostname);
  }
}

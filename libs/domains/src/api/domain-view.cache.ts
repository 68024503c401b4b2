import { DomainView } from '../model/domain.view';

interface Entry {
  view: DomainView;
  expiresAt: number;
}

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
  private readonly entries = new Map<string, Entry>();
  private readonly keysByHostname = new Map<string, string>();
  /** Increases with every invalidation; a read remembers where it started. */
  private seq = 0;
  private readonly invalidatedAt = new Map<string, number>();
  /** Reads that started before this are not stored (the invalidation map was emptied). */
  private floor = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(workspaceId: string, id: string, now = Date.now()): DomainView | undefined {
    const key = keyOf(workspaceId, id);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.drop(key, entry.view.hostname);
      return undefined;
    }
    // Most recently used last: the first entry is the one to evict.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.view;
  }

  /** Call before reading the database; pass the result to `putRead`. */
  readStarted(): number {
    return this.seq;
  }

  /** A view read from the database, unless its hostname was invalidated since the read started. */
  putRead(workspaceId: string, view: DomainView, startedAt: number, now = Date.now()): void {
    if (startedAt < this.floor || (this.invalidatedAt.get(view.hostname) ?? -1) > startedAt) return;
    this.set(workspaceId, view, now);
  }

  /** The answer of a command this replica just sent (committed by the actor): newer than any read. */
  putWritten(workspaceId: string, view: DomainView, now = Date.now()): void {
    this.invalidateHostname(view.hostname);
    this.set(workspaceId, view, now);
  }

  forget(workspaceId: string, id: string, hostname?: string): void {
    if (hostname) this.invalidateHostname(hostname);
    const key = keyOf(workspaceId, id);
    const entry = this.entries.get(key);
    if (entry) this.drop(key, entry.view.hostname);
  }

  invalidateHostname(hostname: string): void {
    this.seq++;
    if (this.invalidatedAt.size >= this.maxEntries) {
      this.invalidatedAt.clear();
      this.floor = this.seq;
    }
    this.invalidatedAt.set(hostname, this.seq);
    const key = this.keysByHostname.get(hostname);
    if (key !== undefined) this.drop(key, hostname);
  }

  clear(): void {
    this.seq++;
    this.floor = this.seq;
    this.invalidatedAt.clear();
    this.entries.clear();
    this.keysByHostname.clear();
  }

  private set(workspaceId: string, view: DomainView, now: number): void {
    const key = keyOf(workspaceId, view.id);
    const old = this.entries.get(key);
    if (old) this.drop(key, old.view.hostname);
    const previous = this.keysByHostname.get(view.hostname);
    if (previous !== undefined && previous !== key) this.drop(previous, view.hostname);
    while (this.entries.size >= this.maxEntries) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.drop(oldest, entry.view.hostname);
    }
    this.entries.set(key, { view, expiresAt: now + this.ttlMs });
    this.keysByHostname.set(view.hostname, key);
  }

  private drop(key: string, hostname: string): void {
    this.entries.delete(key);
    if (this.keysByHostname.get(hostname) === key) this.keysByHostname.delete(hostname);
  }
}

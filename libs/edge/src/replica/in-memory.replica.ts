import { EdgeReplica, ReplicaChange, ReplicaWatcher } from './edge-replica';

const byBus = new WeakMap<object, InMemoryReplica>();

/**
 * The replica of a single process (standalone, tests on the in-process bus): a map with
 * revisions, deletions kept as markers (as a KV bucket keeps them) so a watcher resumed after a
 * revision learns of them too. One per bus, so the writer and the edge of one process share it.
 */
export class InMemoryReplica extends EdgeReplica {
  private readonly values = new Map<string, { value?: string; revision: number }>();
  private readonly watchers = new Set<ReplicaWatcher>();
  private revision = 0;

  static of(bus: object): InMemoryReplica {
    let replica = byBus.get(bus);
    if (!replica) byBus.set(bus, (replica = new InMemoryReplica()));
    return replica;
  }

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key)?.value;
  }

  async put(key: string, value: string): Promise<void> {
    this.values.set(key, { value, revision: ++this.revision });
    this.tell({ key, value, revision: this.revision });
  }

  async create(key: string, value: string): Promise<boolean> {
    if (this.values.get(key)?.value !== undefined) return false;
    await this.put(key, value);
    return true;
  }

  async delete(key: string): Promise<void> {
    if (this.values.get(key)?.value === undefined) return;
    this.values.set(key, { revision: ++this.revision });
    this.tell({ key, revision: this.revision });
  }

  async keys(): Promise<string[]> {
    return [...this.values].filter(([, v]) => v.value !== undefined).map(([key]) => key);
  }

  watch(watcher: ReplicaWatcher, afterRevision = 0): () => void {
    for (const [key, { value, revision }] of this.values) {
      // A fresh watcher needs no markers; a resumed one must hear of deletions it missed.
      if (revision > afterRevision && (value !== undefined || afterRevision > 0)) {
        watcher.onChange({ key, value, revision });
      }
    }
    watcher.onReady();
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private tell(change: ReplicaChange): void {
    this.watchers.forEach((w) => w.onChange(change));
  }
}

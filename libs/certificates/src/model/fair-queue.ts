/**
 * A queue fair across groups (workspaces): `next()` serves the groups in turn, one item each, and
 * each group in the order it enqueued. A workspace importing 10,000 domains delays another
 * workspace's single domain by at most one item per other waiting group, not by its 10,000.
 * Pure and in memory: every operation is O(1) but `positionOf`, O(groups + the item's group).
 */
export interface QueueEntry<T> {
  group: string;
  key: string;
  item: T;
}

export class FairQueue<T> {
  /** Groups with items, in serving order; a Map keeps insertion order, so moving one to the end is O(1). */
  private readonly rotation = new Map<string, Map<string, T>>();
  private readonly groupOf = new Map<string, string>();

  get size(): number {
    return this.groupOf.size;
  }

  has(key: string): boolean {
    return this.groupOf.has(key);
  }

  /** False, and nothing changes, when the key is already queued (in any group). */
  enqueue(group: string, key: string, item: T): boolean {
    if (this.groupOf.has(key)) return false;
    let items = this.rotation.get(group);
    // A group that had nothing joins the rotation at its end, behind everyone already waiting.
    if (!items) this.rotation.set(group, (items = new Map<string, T>()));
    items.set(key, item);
    this.groupOf.set(key, group);
    return true;
  }

  /** The first item of the group whose turn it is; that group then goes to the end of the rotation. */
  next(): QueueEntry<T> | undefined {
    const first = this.rotation.entries().next();
    if (first.done) return undefined;
    const [group, items] = first.value;
    const [key, item] = items.entries().next().value as [string, T];
    items.delete(key);
    this.groupOf.delete(key);
    this.rotation.delete(group);
    if (items.size) this.rotation.set(group, items);
    return { group, key, item };
  }

  /**
   * An item given out that could not use its turn (the budget had no room): back at the head of its
   * group, and its group at the head of the rotation, so the next `next()` gives it out again. Put
   * at the end instead, it would lose its turn to the group served just before it, on every try.
   * False, and nothing changes, when the key is already queued. O(groups).
   */
  putBack(group: string, key: string, item: T): boolean {
    if (this.groupOf.has(key)) return false;
    const items = new Map<string, T>([[key, item], ...(this.rotation.get(group) ?? [])]);
    const rest = [...this.rotation].filter(([g]) => g !== group);
    this.rotation.clear();
    this.rotation.set(group, items);
    for (const [g, its] of rest) this.rotation.set(g, its);
    this.groupOf.set(key, group);
    return true;
  }

  remove(key: string): boolean {
    const group = this.groupOf.get(key);
    if (group === undefined) return false;
    const items = this.rotation.get(group)!;
    items.delete(key);
    this.groupOf.delete(key);
    if (!items.size) this.rotation.delete(group);
    return true;
  }

  /**
   * How many items `next()` returns before this one if nothing else is enqueued or removed: the
   * item `i`-th in its group waits `i` full rounds (each group gives up to `i` items) plus the turns
   * of the groups ahead of its own that still have an item in round `i`. Undefined when not queued.
   */
  positionOf(key: string): number | undefined {
    const group = this.groupOf.get(key);
    if (group === undefined) return undefined;
    const index = indexOf(this.rotation.get(group)!, key);
    let before = 0;
    let ahead = true;
    for (const [g, items] of this.rotation) {
      if (g === group) ahead = false;
      before += Math.min(items.size, index) + (ahead && items.size > index ? 1 : 0);
    }
    return before;
  }
}

function indexOf(items: Map<string, unknown>, key: string): number {
  let i = 0;
  for (const k of items.keys()) {
    if (k === key) return i;
    i++;
  }
  return -1;
}

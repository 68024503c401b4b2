import { Heap } from 'heap-js';

/** Shard numbers are below this (`shard_leases` checks it; SHARD_COUNT of the actors, a layer above). */
const SHARD_NUMBERS = 4096;

/**
 * When a domain is probed, in memory on the node that owns its shard: no row is written per probe.
 *
 * A domain's probe times are deterministic. On its phase slots (`phase * interval` into every
 * interval) and, while it is on the pending back-off, also at `backoffFrom + w1`, `+ w1 + w2`, ...
 * (`pendingProbeWaits`), whichever comes first. So what a node must persist for another node to
 * take a shard over is one time per shard, its watermark: every probe time of the shard before it
 * has been probed (or taken for a probe). The new owner probes each domain's first time at or after
 * the watermark; at worst a few seconds of probes are repeated, none is missed.
 */
export interface ScheduleTiming {
  intervalMs: number;
  /** The pending back-off's waits, milliseconds (`pendingProbeWaits`). */
  waitsMs: readonly number[];
  /** Due longer ago than this (its node was down): skipped to its next slot, no stampede. */
  staleAfterMs: number;
}

/** A domain of an owned shard as the schedule knows it, with what its probe needs (`V`). */
export interface ScheduleInput<V = unknown> {
  id: string;
  shard: number;
  phase: number;
  /** Start of the pending back-off (the creation, or a check), while the domain is on it. */
  backoffFrom?: number;
  view: V;
}

export interface ScheduledDomain<V = unknown> extends ScheduleInput<V> {
  /** The probe time this entry stands at: waiting for it, or being probed for it. */
  readonly dueAt: number;
  /** Taken for a probe and not yet done. */
  taken: boolean;
  /** When it was last taken. */
  takenAt?: number;
}

/** An entry as the schedule holds it: `current` until replaced or forgotten (then dropped from the heap lazily). */
interface Entry<V> extends ScheduledDomain<V> {
  dueAt: number;
  current: boolean;
}

/** The first of the phase's slots at or after `t`. */
export function slotAtOrAfter(phase: number, intervalMs: number, t: number): number {
  const offset = phase * intervalMs;
  return Math.ceil((t - offset) / intervalMs) * intervalMs + offset;
}

/** The first back-off probe time at or after `t`, or undefined past the last wait. */
export function backoffAtOrAfter(fromMs: number, waitsMs: readonly number[], t: number): number | undefined {
  let at = fromMs;
  for (const wait of waitsMs) {
    at += wait;
    if (at >= t) return at;
  }
  return undefined;
}

/**
 * The schedule of one node's domains: a heap by due time over every domain of its shards. An entry
 * never changes its due time while in the heap: a change puts a new entry in the map, and the old
 * one is dropped when it reaches the top (`peekCurrent`).
 */
export class ProbeSchedule<V = unknown> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly heap = new Heap<Entry<V>>((a, b) => a.dueAt - b.dueAt);

  constructor(private readonly timing: ScheduleTiming) {}

  get size(): number {
    return this.entries.size;
  }

  /** A new domain (just created here), due at its first back-off time. A domain already known keeps its entry. */
  add(domain: ScheduleInput<V>, now: number): void {
    if (this.entries.has(domain.id)) return;
    this.put(domain, this.firstAtOrAfter(domain, now));
  }

  /**
   * The domains of a shard taken on, resuming from its watermark. Without one, or with one older
   * than `staleAfterMs` (nobody probed the shard for that long), each domain resumes at its next
   * slot from now instead, so a long outage ends without a burst; returns how many probe times were
   * skipped that way. Domains already known (created here meanwhile) keep their entries.
   */
  load(domains: readonly ScheduleInput<V>[], watermark: number | undefined, now: number): number {
    const fresh = watermark !== undefined && watermark >= now - this.timing.staleAfterMs;
    let skipped = 0;
    for (const domain of domains) {
      if (this.entries.has(domain.id)) continue;
      if (fresh) {
        this.put(domain, this.firstAtOrAfter(domain, watermark));
        continue;
      }
      if (watermark !== undefined && this.firstAtOrAfter(domain, watermark) < now) skipped++;
      this.put(domain, this.firstAtOrAfter(domain, now));
    }
    return skipped;
  }

  /** Forgets the domains of shards no longer owned. */
  keepShards(owned: (shard: number) => boolean): void {
    for (const [id, entry] of this.entries) {
      if (owned(entry.shard)) continue;
      entry.current = false;
      this.entries.delete(id);
    }
  }

  /** What a domain's probe needs changed (it was written): its entry keeps its place. */
  setView(id: string, view: V): void {
    const entry = this.entries.get(id);
    if (entry) entry.view = view;
  }

  /** Forgets a domain (deleted, or moved to another workspace). */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.current = false;
    this.entries.delete(id);
  }

  /**
   * Up to `max` domains due at `now`, marked taken. One due longer ago than `staleAfterMs` is not
   * returned but moved to its next slot and counted in `skipped`.
   */
  take(now: number, max: number): { due: ScheduledDomain<V>[]; skipped: number } {
    const due: ScheduledDomain<V>[] = [];
    let skipped = 0;
    while (due.length < max) {
      const top = this.peekCurrent();
      if (!top || top.dueAt > now) break;
      this.heap.pop();
      if (top.dueAt < now - this.timing.staleAfterMs) {
        skipped++;
        this.put(top, slotAtOrAfter(top.phase, this.timing.intervalMs, now + this.timing.intervalMs / 2));
        continue;
      }
      top.taken = true;
      top.takenAt = now;
      due.push(top);
    }
    return { due, skipped };
  }

  /**
   * A taken domain was probed: due again at its next slot at least half an interval after it was
   * taken (a late probe is not followed by an early one; a slow probe does not cost the next slot),
   * or sooner at its next back-off time. A verified domain leaves the back-off, as does one past its
   * last wait.
   */
  done(taken: ScheduledDomain<V>, now: number, verified: boolean): void {
    const entry = taken as Entry<V>;
    entry.taken = false;
    if (!entry.current) return;
    const after = Math.max(entry.dueAt + 1, now);
    const takenAt = entry.takenAt ?? now;
    const slot = slotAtOrAfter(
      entry.phase,
      this.timing.intervalMs,
      Math.max(entry.dueAt + 1, takenAt + this.timing.intervalMs / 2),
    );
    const backoff =
      verified || entry.backoffFrom === undefined
        ? undefined
        : backoffAtOrAfter(entry.backoffFrom, this.timing.waitsMs, after);
    if (backoff === undefined) entry.backoffFrom = undefined;
    // Taken entries are out of the heap (`take` popped it): it goes back in at its new time, no copy.
    entry.dueAt = backoff === undefined ? slot : Math.min(backoff, slot);
    this.heap.push(entry);
  }

  /**
   * A check of a domain not serving HTTPS yet: its back-off starts again now. One being probed gets
   * the new back-off when that probe is done.
   */
  restartBackoff(id: string, now: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.backoffFrom = now;
    if (!entry.taken) this.put(entry, Math.min(entry.dueAt, this.firstAtOrAfter(entry, now)));
  }

  /** When the earliest domain not taken is due, if any. */
  nextDueAt(): number | undefined {
    return this.peekCurrent()?.dueAt;
  }

  /**
   * Each given shard's watermark: the earliest probe time of its domains not yet done (taken ones
   * count at the time they were taken for; it lies ahead when nothing is due), or undefined for a
   * shard without domains.
   */
  watermarks(shards: readonly number[]): (number | undefined)[] {
    // A typed array by shard number, not a Map: one pass over 300,000 domains in a few milliseconds.
    const earliest = new Float64Array(SHARD_NUMBERS).fill(Infinity);
    for (const entry of this.entries.values())
      if (entry.dueAt < earliest[entry.shard]) earliest[entry.shard] = entry.dueAt;
    return shards.map((shard) => (earliest[shard] === Infinity ? undefined : earliest[shard]));
  }

  /**
   * The first probe time at or after `t`: its slot, or its back-off time when sooner. Never a slot
   * before the back-off's first time: the API looked at a new domain's DNS a moment ago (a check
   * did the same), and the customer needs that wait to set DNS up.
   */
  private firstAtOrAfter(domain: ScheduleInput<V>, t: number): number {
    const { intervalMs, waitsMs } = this.timing;
    if (domain.backoffFrom === undefined) return slotAtOrAfter(domain.phase, intervalMs, t);
    const backoff = backoffAtOrAfter(domain.backoffFrom, waitsMs, t);
    if (backoff === undefined) return slotAtOrAfter(domain.phase, intervalMs, t);
    const firstWait = domain.backoffFrom + (waitsMs[0] ?? 0);
    return Math.min(backoff, slotAtOrAfter(domain.phase, intervalMs, Math.max(t, firstWait)));
  }

  private put(domain: ScheduleInput<V>, dueAt: number): void {
    const entry: Entry<V> = {
      id: domain.id,
      shard: domain.shard,
      phase: domain.phase,
      backoffFrom: domain.backoffFrom,
      view: domain.view,
      dueAt,
      taken: false,
      current: true,
    };
    const replaced = this.entries.get(entry.id);
    if (replaced) replaced.current = false;
    this.entries.set(entry.id, entry);
    this.heap.push(entry);
  }

  /** The heap's top once entries replaced or forgotten are dropped. */
  private peekCurrent(): Entry<V> | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (!top || (top.current && !top.taken)) return top;
      this.heap.pop();
    }
  }
}

/**
 * Why a node left the members: `left` it said so (SIGTERM, a drain), `killed` it was found gone (no
 * responders and its presence lock free: the process died), `silent` no heartbeat for the TTL (a
 * pause, a partition, or a death nobody confirmed).
 */
export type DepartureReason = 'left' | 'killed' | 'silent';

export interface Departure {
  nodeId: string;
  at: string;
  reason: DepartureReason;
}

/** How long a departed node stays listed, and how many at most. */
export const DEPARTURES_KEPT_MS = 60 * 60_000;
export const DEPARTURES_KEPT = 20;

/**
 * The nodes that left lately, newest first, with when and why. Pure: the caller passes the clock.
 * A reason heard before the node drops out of the members (its key deleted, found killed) is
 * remembered until it does; without one, the departure is `silent`.
 */
export class Departures {
  private readonly list: Departure[] = [];
  private readonly heard = new Map<string, DepartureReason>();

  /** What was heard about a node that may leave the members next. */
  heardOf(nodeId: string, reason: DepartureReason): void {
    this.heard.set(nodeId, reason);
  }

  /** The node dropped out of the members now. */
  departed(nodeId: string, now: number): void {
    const reason = this.heard.get(nodeId) ?? 'silent';
    this.heard.delete(nodeId);
    this.list.unshift({ nodeId, at: new Date(now).toISOString(), reason });
    this.list.splice(DEPARTURES_KEPT);
  }

  /** It is back: whatever was heard of it before no longer applies. */
  rejoined(nodeId: string): void {
    this.heard.delete(nodeId);
  }

  recent(now: number): Departure[] {
    return this.list.filter((d) => now - Date.parse(d.at) < DEPARTURES_KEPT_MS);
  }
}

/**
 * Every node's list merged: one row per node, its newest departure, leaving out nodes that are
 * members again; newest first.
 */
export function mergeDepartures(lists: readonly (readonly Departure[])[], present: ReadonlySet<string>): Departure[] {
  const newest = new Map<string, Departure>();
  for (const d of lists.flat()) {
    if (present.has(d.nodeId)) continue;
    const known = newest.get(d.nodeId);
    if (!known || Date.parse(d.at) > Date.parse(known.at)) newest.set(d.nodeId, d);
  }
  return [...newest.values()].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

import type { DomainState } from '@app/domain-model';

/**
 * A new domain's first probe comes this soon (the customer may have set DNS up already), and so does
 * the first probe after a check of a domain not serving HTTPS yet.
 */
export const FIRST_PROBE_SECONDS = 10;

/** The wait before the first probe of a new or checked domain: 10 s, or the interval when shorter. */
export const firstProbeSeconds = (intervalSeconds: number): number => Math.min(FIRST_PROBE_SECONDS, intervalSeconds);

/**
 * The pending back-off, in seconds: the wait before the first probe after a domain's creation (or a
 * check), then before each next probe, doubling while shorter than the monitor interval: at 300 s,
 * [10, 20, 40, 80, 160]; at 15 s or less, only the first wait. A domain's `backoff_step` in
 * `domain_schedule` is the 1-based position of the wait it is in; each claim moves it to the next
 * one, and past the last it returns to its phase slot (a claim never waits longer than that slot).
 */
export function pendingProbeWaits(intervalSeconds: number): number[] {
  const waits = [firstProbeSeconds(intervalSeconds)];
  for (let next = waits[0] * 2; next < intervalSeconds; next *= 2) waits.push(next);
  return waits;
}

/**
 * Whether a check puts the domain (as the check left it) back on the pending back-off: any domain not
 * serving HTTPS yet, that is not `verified`, except one taken over by another workspace (final, never
 * probed). A verified domain keeps its phase slot, also while its DNS drifts: probed faster, its
 * three wrong probes in a row (`dns_drift`) would fail it within a minute instead of three intervals.
 */
export const checkRestartsBackoff = (machine: Pick<DomainState, 'status' | 'statusReason'>): boolean =>
  machine.status !== 'verified' && machine.statusReason !== 'moved_to_another_owner';

import type { DomainState } from '../model/domain.types';

/**
 * A new domain's first probe comes this soon (the customer may have set DNS up already), and so does
 * the first probe after a check of a domain not serving HTTPS yet.
 */
const FIRST_PROBE_SECONDS = 10;

/** The wait before the first probe of a new or checked domain: 10 s, or the interval when shorter. */
export const firstProbeSeconds = (intervalSeconds: number): number => Math.min(FIRST_PROBE_SECONDS, intervalSeconds);

/** While a customer is most likely following the instructions, probes are at most this far apart... */
const EARLY_WAIT_CAP_SECONDS = 30;
/** ...for this long after the creation or check: a fix then is seen within 30 s (p95 of a fix ~28 s). */
const EARLY_WINDOW_SECONDS = 300;

/**
 * The pending back-off, in seconds: the wait before the first probe after a domain's creation (or a
 * check), then before each next probe. The waits double from the first, capped at 30 s during the
 * first 5 minutes, then keep doubling from 60 s while shorter than the monitor interval: at 300 s,
 * [10, 20, 30 x 9, 60, 120, 240]; at 15 s or less, only the first wait. The waits add up from the
 * creation (or the check): past the last, the domain is back on its phase slot, and no wait outlasts
 * that slot (`ProbeSchedule`).
 * Doubling alone (10, 20, 40, 80, 160) left a fix made after the probe at 70 s waiting for the one
 * at 150 s: p95 74 s from correct DNS to the order in `certificates.time-to-https`.
 */
export function pendingProbeWaits(intervalSeconds: number): number[] {
  const waits = [firstProbeSeconds(intervalSeconds)];
  let elapsed = waits[0];
  let next = waits[0] * 2;
  while (elapsed < EARLY_WINDOW_SECONDS) {
    const wait = Math.min(next, EARLY_WAIT_CAP_SECONDS);
    if (wait >= intervalSeconds) return waits;
    waits.push(wait);
    elapsed += wait;
    next *= 2;
  }
  for (next = EARLY_WAIT_CAP_SECONDS * 2; next < intervalSeconds; next *= 2) waits.push(next);
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

import { hash53 } from '@app/actors';

/**
 * A domain's stable place in the monitor interval, in [0, 1) and in steps of 1e-6 (the served-check
 * spread in `domain-certificate` relies on those steps): a hash of the id, so it needs no storage to
 * stay the same across restarts and nodes.
 */
export function probePhaseOf(id: string): number {
  return (hash53(id, 7) % 1_000_000) / 1_000_000;
}

import type { DomainState } from './domain.types';

/**
 * Seconds from DNS first pointing at the edge to the domain's first certificate (what the
 * time-to-HTTPS SLO measures), when `issued` is that first certificate; undefined for a renewal, a
 * failure, or a domain whose DNS was never seen correct.
 */
export function firstCertificateSeconds(
  before: DomainState | undefined,
  command: { result: string },
  now: Date,
): number | undefined {
  if (command.result !== 'issued' || !before?.firstSeenCorrectDnsAt || before.certificateExpiresAt) return undefined;
  return Math.max(0, (now.getTime() - Date.parse(before.firstSeenCorrectDnsAt)) / 1000);
}

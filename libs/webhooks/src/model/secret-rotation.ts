/** The overlap after a rotation when the call names none: receivers get a day to deploy the new secret. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 60 * 60;
/** The longest overlap a rotation may ask for (the retry window, SPEC 8). */
export const MAX_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

/** An endpoint's secrets as stored: both sealed; the previous one only during an overlap. */
export interface EndpointSecrets {
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

/** When a rotation at `now` stops the replaced secret; null: at once (no overlap). */
export function overlapEnd(now: Date, overlapSeconds: number): Date | null {
  return overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null;
}

/**
 * The sealed secrets a delivery at `now` is signed with, current first: during the overlap the
 * replaced one too (two `sha256=` values, so a receiver that knows either verifies), then only the
 * current one.
 */
export function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const { previousSecretSealed: previous, previousSecretExpiresAt: until } = endpoint;
  const overlapping = previous !== null && until !== null && now.getTime() < until.getTime();
  return overlapping ? [endpoint.secretSealed, previous] : [endpoint.secretSealed];
}

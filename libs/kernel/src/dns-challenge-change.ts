/**
 * A DNS-01 challenge was published or withdrawn at `{name}` (under ACME_CHALLENGE_ZONE): every
 * edge's DNS listener reloads its copy, so the CA's query finds the TXT value at once.
 */
export const DNS_CHALLENGE_CHANGED_SUBJECT = 'acme.dns-challenge.changed';

export interface DnsChallengeChange {
  name: string;
}

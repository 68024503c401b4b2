import { createHash } from 'node:crypto';

/** The record a customer adds once so this service can answer DNS-01 for a hostname, forever. */
export interface ChallengeDelegation {
  /** `_acme-challenge.<name>`; a wildcard `*.example.com` shares `_acme-challenge.example.com` with its base name. */
  name: string;
  /** `<label>.<zone>`, where the service's DNS listener answers the challenge's TXT values. */
  target: string;
}

/** The name a wildcard's certificate is validated at: `*.shop.example.com` -> `shop.example.com`. */
export const wildcardBase = (hostname: string): string => (hostname.startsWith('*.') ? hostname.slice(2) : hostname);

export const isWildcard = (hostname: string): boolean => hostname.startsWith('*.');

/**
 * The delegation of `hostname` for `workspaceId`. The label is a hash of both (no secret, nothing
 * stored): the same in every process and across deletes, shared by a wildcard and its base name in
 * one workspace, and different for every other workspace, so a CNAME made for one workspace never
 * lets another obtain certificates for the name.
 */
export function challengeDelegation(hostname: string, workspaceId: string, zone: string): ChallengeDelegation {
  const base = wildcardBase(hostname);
  const label = createHash('sha256').update(`${workspaceId}\n${base}`).digest('hex').slice(0, 32);
  return { name: `_acme-challenge.${base}`, target: `${label}.${zone}` };
}

/** What the `_acme-challenge` name holds: our target, nothing (or no CNAME), or a CNAME elsewhere. */
export type DelegationState = 'correct' | 'missing' | 'wrong';

/** The state from the CNAME targets found at the delegation's name (case and trailing dot ignored). */
export function delegationState(found: readonly string[], delegation: ChallengeDelegation): DelegationState {
  const targets = found.map((value) => value.toLowerCase().replace(/\.$/, ''));
  if (targets.includes(delegation.target)) return 'correct';
  return targets.length ? 'wrong' : 'missing';
}

/** The label the monitor resolves under a wildcard: any name would do, this one says who asked. */
const WILDCARD_PROBE_LABEL = 'wildcard-probe';

/**
 * The name DNS and TLS probes ask for: the hostname itself, or for `*.example.com` a name the
 * wildcard record answers (`wildcard-probe.example.com`), as a visitor's browser would resolve it.
 */
export const probeNameOf = (hostname: string): string =>
  isWildcard(hostname) ? `${WILDCARD_PROBE_LABEL}.${wildcardBase(hostname)}` : hostname;

import { ConfigError, Env, hostname, integer, raw } from './env-parsers';

/**
 * The zone this service answers DNS for, so customers can delegate their ACME DNS-01 challenge
 * name to it once (`_acme-challenge.<name> CNAME <label>.<zone>`): wildcard hostnames and
 * certificates issued before the cutover. Unset: HTTP-01 only, and wildcard hostnames are refused.
 */
export interface ChallengeZoneConfig {
  /** e.g. `acme.custom-domains.example`; the operator delegates it (NS records) to the edge's DNS listener. */
  zone: string;
  /** The names of the zone's NS records (they resolve to the edges' addresses); default: EDGE_CNAME_TARGET. */
  nameservers: string[];
  /** UDP and TCP port of the listener in each edge process (53 in production). */
  port: number;
  /** Queries per second one source address may ask before it is ignored (UDP) or refused (TCP). */
  queriesPerSecond: number;
}

/** ACME_CHALLENGE_*: the zone turns DNS-01 on; the other settings need it. */
export function challengeZoneConfig(env: Env, edgeCnameTarget: string): ChallengeZoneConfig | undefined {
  const zone = raw(env, 'ACME_CHALLENGE_ZONE') === undefined ? undefined : hostname(env, 'ACME_CHALLENGE_ZONE', '');
  if (!zone) {
    for (const name of ['ACME_CHALLENGE_NAMESERVERS', 'ACME_CHALLENGE_DNS_PORT', 'ACME_CHALLENGE_DNS_QPS']) {
      if (raw(env, name)) throw new ConfigError(name, 'is set but ACME_CHALLENGE_ZONE is not');
    }
    return undefined;
  }
  if (zone === edgeCnameTarget || edgeCnameTarget.endsWith(`.${zone}`)) {
    throw new ConfigError('ACME_CHALLENGE_ZONE', `must not contain EDGE_CNAME_TARGET (${edgeCnameTarget})`);
  }
  const nameservers = (raw(env, 'ACME_CHALLENGE_NAMESERVERS') ?? edgeCnameTarget)
    .split(',')
    .map((item) => hostname({ ACME_CHALLENGE_NAMESERVERS: item }, 'ACME_CHALLENGE_NAMESERVERS', '') || empty());
  return {
    zone,
    nameservers,
    port: integer(env, 'ACME_CHALLENGE_DNS_PORT', 53, 1, 65535),
    queriesPerSecond: integer(env, 'ACME_CHALLENGE_DNS_QPS', 200, 1, 1_000_000),
  };
}

function empty(): never {
  throw new ConfigError('ACME_CHALLENGE_NAMESERVERS', 'must list hostnames without empty items');
}

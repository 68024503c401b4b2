/** Where customers point their DNS: the CNAME target and the apex A records. */
export interface EdgeSettings {
  cnameTarget: string;
  ipv4: string[];
  /** ACME_CHALLENGE_ZONE: where customers delegate `_acme-challenge`; unset, no delegation is asked for. */
  challengeZone?: string;
}

/** The edge settings of the validated configuration: one shape for every reader. */
export const edgeSettingsOf = (config: {
  edgeCnameTarget: string;
  edgeIpv4: string[];
  challengeZone?: { zone: string };
}): EdgeSettings => ({
  cnameTarget: config.edgeCnameTarget,
  ipv4: config.edgeIpv4,
  ...(config.challengeZone ? { challengeZone: config.challengeZone.zone } : {}),
});

/** Where customers point their DNS: the CNAME target and the apex A records. */
export interface EdgeSettings {
  cnameTarget: string;
  ipv4: string[];
}

/** The edge settings of the validated configuration: one shape for every reader. */
export const edgeSettingsOf = (config: { edgeCnameTarget: string; edgeIpv4: string[] }): EdgeSettings => ({
  cnameTarget: config.edgeCnameTarget,
  ipv4: config.edgeIpv4,
});

import { DnsObservation } from '@app/domain-model';
import { DnsResolver } from './dns-resolver';

export interface EdgeTargets {
  cnameTarget: string;
  ipv4: string[];
}

export interface DnsProbe {
  dns: DnsObservation;
  /** What the name resolved to, for the customer message and the logs. */
  cname?: string;
  addresses: string[];
}

const canonical = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Does the hostname point at the edge? Correct when its CNAME is the edge target, or when it
 * resolves only to the edge's addresses (apex A records, or a provider that flattens the CNAME).
 */
export class DnsProber {
  constructor(
    private readonly resolver: DnsResolver,
    private readonly edge: EdgeTargets,
  ) {}

  async probe(hostname: string): Promise<DnsProbe> {
    const [cname] = await this.resolver.cname(hostname);
    if (cname && canonical(cname) === this.edge.cnameTarget)
      return { dns: 'correct', cname: canonical(cname), addresses: [] };
    const addresses = await this.resolver.addresses(hostname);
    if (!addresses.length) return { dns: cname ? 'incorrect' : 'not_resolving', cname, addresses };
    const onEdge = addresses.every((address) => this.edge.ipv4.includes(address));
    return { dns: onEdge ? 'correct' : 'incorrect', cname, addresses };
  }
}

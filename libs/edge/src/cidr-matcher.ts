import * as ipaddr from 'ipaddr.js';

/** Whether an address (IPv4-mapped IPv6 judged as IPv4) lies in any of the ranges. */
export function cidrMatcher(cidrs: readonly string[]): (address: string | undefined) => boolean {
  const ranges = cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  return (address) => {
    if (!address || !ipaddr.isValid(address)) return false;
    const ip = ipaddr.process(address);
    return ranges.some((range) => range[0].kind() === ip.kind() && ip.match(range));
  };
}

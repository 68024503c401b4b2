import { CaaClimbStep } from '@app/hostname-rules';
import { DnsResolver } from './dns-resolver';

/**
 * The CAA climb of RFC 8659: the hostname, then each parent, until a name with CAA records or the
 * top-level domain. Returns the steps for `evaluateCaa`.
 */
export async function climbCaa(resolver: Pick<DnsResolver, 'caa'>, hostname: string): Promise<CaaClimbStep[]> {
  const labels = hostname.split('.');
  const steps: CaaClimbStep[] = [];
  for (let i = 0; i < labels.length - 1; i++) {
    const name = labels.slice(i).join('.');
    const records = await resolver.caa(name);
    steps.push({ name, records });
    if (records.length) break;
  }
  return steps;
}

import { dnsProblemMessage } from './dns-problem';
import { DomainState, MONITOR_MESSAGES } from './domain.types';

export const MOVED_TO_ANOTHER_OWNER_MESSAGE =
  'Another workspace proved control of this hostname with a DNS TXT record and connected it: this domain ' +
  'no longer serves it';

/** The customer message of a state: a named DNS problem or a move says more than SPEC 3.3's generic line. */
export function monitorMessageOf(state: Pick<DomainState, 'monitorStatus' | 'statusReason' | 'dnsProblem'>): string {
  if (state.statusReason === 'moved_to_another_owner') return MOVED_TO_ANOTHER_OWNER_MESSAGE;
  const dnsStatus = state.monitorStatus === 'dns_incorrect' || state.monitorStatus === 'dns_not_resolving';
  if (dnsStatus && state.dnsProblem) return dnsProblemMessage(state.dnsProblem);
  return MONITOR_MESSAGES[state.monitorStatus];
}

import { dnsProblemMessage } from '@app/hostname-rules';
import { DomainState, MONITOR_MESSAGES } from './domain.types';

const MOVED_TO_ANOTHER_OWNER_MESSAGE =
  'Another workspace proved control of this hostname with a DNS TXT record and connected it: this domain ' +
  'no longer serves it';

/** Monitor states whose customer line asks for DNS records. */
const ASKS_FOR_RECORDS: ReadonlySet<string> = new Set(['unknown', 'dns_not_resolving', 'dns_incorrect']);

/**
 * The customer line of a domain on our registrar's DNS (bought through us): not "Add the ... records at
 * your registrar" (we are the registrar and wrote them) but that we set it up; other states keep theirs.
 */
export function registrarDnsMessage(monitorStatus: string, message: string): string {
  return ASKS_FOR_RECORDS.has(monitorStatus)
    ? 'We set up the DNS for you at our registrar: nothing to add. New records can take a few minutes to resolve.'
    : message;
}

/** The customer message of a state: a named DNS problem or a move says more than SPEC 3.3's generic line. */
export function monitorMessageOf(state: Pick<DomainState, 'monitorStatus' | 'statusReason' | 'dnsProblem'>): string {
  if (state.statusReason === 'moved_to_another_owner') return MOVED_TO_ANOTHER_OWNER_MESSAGE;
  const dnsStatus = state.monitorStatus === 'dns_incorrect' || state.monitorStatus === 'dns_not_resolving';
  if (dnsStatus && state.dnsProblem) return dnsProblemMessage(state.dnsProblem);
  return MONITOR_MESSAGES[state.monitorStatus];
}

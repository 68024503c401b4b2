import { Html, html } from '../html';

/** A domain bought through us whose DNS we set up at our registrar (connected, on the registrar's own nameservers). */
export interface ManagedDns {
  purchaseId: string;
  hostname: string;
}

/** Monitor states whose customer line asks for DNS records: records we wrote already. */
const ASKS_FOR_RECORDS = new Set(['unknown', 'dns_not_resolving', 'dns_incorrect']);

/**
 * What the customer sees for a domain on our registrar's DNS: not "Add the ... records at your registrar"
 * (we are the registrar and wrote them) but that we set it up; other states keep their line.
 */
export function managedCustomerLine(monitorStatus: string, monitorMessage: string): string {
  return ASKS_FOR_RECORDS.has(monitorStatus)
    ? 'We set up the DNS for you at our registrar: nothing to add. New records can take a few minutes to resolve.'
    : monitorMessage;
}

/** The line under it (and above the records) saying why, with the purchase it comes from. */
export function managedNote(workspaceId: string, m: ManagedDns): Html {
  return html`<p class="managed-dns">
    ${m.hostname} was bought through us and runs on our registrar's DNS: we wrote these records there.
    <a href="/console/w/${workspaceId}/purchases/${m.purchaseId}">Its purchase →</a>
  </p>`;
}

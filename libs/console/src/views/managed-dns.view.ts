import { registrarDnsMessage } from '@app/domains';
import { Html, html } from '../html';

/** A domain bought through us whose DNS we set up at our registrar (connected, on the registrar's own nameservers). */
export interface ManagedDns {
  purchaseId: string;
  hostname: string;
}

/** What the customer sees for a domain on our registrar's DNS (the domain model's rule, as the API says it). */
export const managedCustomerLine = registrarDnsMessage;

/** The line under it (and above the records) saying why, with the purchase it comes from. */
export function managedNote(workspaceId: string, m: ManagedDns): Html {
  return html`<p class="managed-dns">
    ${m.hostname} was bought through us and runs on our registrar's DNS: we wrote these records there.
    <a href="/console/w/${workspaceId}/purchases/${m.purchaseId}">Its purchase →</a>
  </p>`;
}

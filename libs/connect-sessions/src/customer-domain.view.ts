import type { DomainView } from '@app/domains';
import { customerCertificate } from './customer-certificate';

/**
 * What a connect-session token (held by the end customer's browser) sees of its domain: what the
 * widget shows and acts on (the hostname, its status and the monitor's words, the records to
 * create, the certificate). Nothing the SaaS keeps to itself: not its origin (`originUrl`), its
 * `metadata`, its `projectId`, nor its routing settings (mode, keepHost, redirects) or timestamps;
 * nor the internals of a certificate failure that is ours (customer-certificate.ts).
 */
export const CUSTOMER_DOMAIN_FIELDS = [
  'id',
  'hostname',
  'apex',
  'status',
  'statusReason',
  'monitorStatus',
  'monitorMessage',
  'dnsRecords',
  // Bought through the SaaS on our registrar's DNS: the widget asks for nothing (an opaque purchase id).
  'registrarDns',
  'certificate',
  'verifiedAt',
  'lastCheckedAt',
] as const satisfies readonly (keyof DomainView)[];

export type CustomerDomainView = Pick<DomainView, (typeof CUSTOMER_DOMAIN_FIELDS)[number]>;

export function toCustomerDomainView(domain: DomainView): CustomerDomainView {
  const view: Partial<Record<keyof DomainView, unknown>> = {};
  for (const field of CUSTOMER_DOMAIN_FIELDS) view[field] = domain[field];
  return { ...(view as CustomerDomainView), ...customerCertificate(domain) };
}

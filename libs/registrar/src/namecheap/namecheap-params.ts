import type { RegistrarDnsRecord, RegistrarDnsRecordType, Registrant } from '../registrar.port';
import { XmlNode, attr, children } from './namecheap-xml';

/** domains.create wants the same person four times; the end-user is every contact of record (SPEC 2.6). */
const CONTACT_ROLES = ['Registrant', 'Tech', 'Admin', 'AuxBilling'] as const;

/** The registrant's fields, verbatim, under Namecheap's parameter names for each contact role. */
export function contactParams(registrant: Registrant): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    FirstName: registrant.firstName,
    LastName: registrant.lastName,
    Address1: registrant.address1,
    Address2: registrant.address2,
    City: registrant.city,
    StateProvince: registrant.stateOrProvince,
    PostalCode: registrant.postalCode,
    Country: registrant.country,
    Phone: registrant.phone,
    EmailAddress: registrant.email,
    OrganizationName: registrant.organization,
  };
  const params: Record<string, string> = {};
  for (const role of CONTACT_ROLES) {
    for (const [field, value] of Object.entries(fields)) if (value !== undefined) params[`${role}${field}`] = value;
  }
  return params;
}

/** Namecheap accepts TTLs of 60-60000 s; the API contract allows up to 86400, so longer ones are capped. */
const MAX_NAMECHEAP_TTL = 60_000;

/** dns.setHosts: indexed HostNameN/RecordTypeN/AddressN/TTLN (+MXPrefN); MX hosts only count with EmailType=MX. */
export function hostParams(records: RegistrarDnsRecord[]): Record<string, string> {
  const params: Record<string, string> = {};
  records.forEach((record, i) => {
    const n = i + 1;
    params[`HostName${n}`] = record.name;
    params[`RecordType${n}`] = record.type;
    params[`Address${n}`] = record.value;
    params[`TTL${n}`] = String(Math.min(record.ttl, MAX_NAMECHEAP_TTL));
    if (record.type === 'MX') params[`MXPref${n}`] = String(record.priority ?? 10);
  });
  if (records.some((r) => r.type === 'MX')) params.EmailType = 'MX';
  return params;
}

/** dns.getHosts' `<host Name Type Address MXPref TTL/>` back into the port's records. */
export function recordsOf(result: XmlNode | undefined): RegistrarDnsRecord[] {
  return children(result, 'host').map((host) => {
    const type = attr(host, 'Type').toUpperCase() as RegistrarDnsRecordType;
    const record: RegistrarDnsRecord = {
      type,
      name: attr(host, 'Name'),
      value: attr(host, 'Address'),
      ttl: Number(attr(host, 'TTL')) || 1800,
    };
    if (type === 'MX') record.priority = Number(attr(host, 'MXPref'));
    return record;
  });
}

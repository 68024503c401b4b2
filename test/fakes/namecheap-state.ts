/** What the Namecheap fake keeps per domain in the account. */
export interface FakeHost {
  HostId: number;
  Name: string;
  Type: string;
  Address: string;
  MXPref: number;
  TTL: number;
}

export interface FakeNamecheapDomain {
  id: number;
  hostname: string;
  sld: string;
  tld: string;
  created: Date;
  expires: Date;
  whoisguard: boolean;
  /** Every create parameter that starts with a contact role (RegistrantFirstName, TechPhone, ...). */
  contacts: Record<string, string>;
  /** Undefined: Namecheap's own DNS (BasicDNS); otherwise the custom nameservers. */
  customNameservers?: string[];
  emailType: string;
  hosts: FakeHost[];
}

/** Per-year wholesale list (dollars) of the fake's catalogue; longer terms get 10 cents off per extra year. */
export interface FakeTldPrice {
  register: string;
  renew: string;
  /** ICANN fee per year. */
  icann: string;
}

export const FAKE_NAMECHEAP_PRICES: Record<string, FakeTldPrice> = {
  com: { register: '10.28', renew: '14.58', icann: '0.18' },
  net: { register: '12.98', renew: '15.98', icann: '0.18' },
  org: { register: '9.98', renew: '14.98', icann: '0.18' },
  io: { register: '34.98', renew: '52.98', icann: '0.00' },
  dev: { register: '12.98', renew: '15.98', icann: '0.18' },
  app: { register: '14.98', renew: '17.98', icann: '0.18' },
  co: { register: '11.98', renew: '28.98', icann: '0.00' },
  us: { register: '8.98', renew: '10.98', icann: '0.00' },
  xyz: { register: '1.98', renew: '13.98', icann: '0.18' },
};

/** The dollars string Namecheap would print for `cents` ("10.2800"). */
export function dollars(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}00`;
}

/** Per-year price for a term: the list price minus 10 cents per year beyond the first. */
export function termPriceCents(perYear: string, years: number): number {
  const [whole, fraction = ''] = perYear.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return Math.max(0, cents - 10 * (years - 1));
}

export const CONTACT_ROLES = ['Registrant', 'Tech', 'Admin', 'AuxBilling'];
export const REQUIRED_CONTACT_FIELDS = [
  'FirstName',
  'LastName',
  'Address1',
  'City',
  'StateProvince',
  'PostalCode',
  'Country',
  'Phone',
  'EmailAddress',
];
export const SETHOSTS_TYPES = new Set([
  'A',
  'AAAA',
  'ALIAS',
  'CAA',
  'CNAME',
  'MX',
  'MXE',
  'NS',
  'TXT',
  'URL',
  'URL301',
  'FRAME',
]);
export const DEFAULT_NAMESERVERS = ['dns1.registrar-servers.com', 'dns2.registrar-servers.com'];

/** MM/DD/YYYY, as getInfo prints dates. */
export const mdy = (d: Date) =>
  `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;

/** M/D/YYYY h:mm:ss AM, as renew prints the new expiry. */
export function mdyTime(d: Date): string {
  const h = d.getUTCHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${h % 12 || 12}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

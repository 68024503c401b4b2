import type { SqlExecutor } from '@app/persistence';
import type { RegistrarDnsRecord, Registrant } from '../registrar.port';

export interface SandboxRegistrationRow {
  hostname: string;
  registrar_domain_id: string;
  whois_privacy: boolean;
  created_at: Date;
  expires_at: Date;
  nameservers: string[];
  dns_records: RegistrarDnsRecord[];
}

/** The driver hands timestamps back as text here; the rest of the code wants Dates. */
function withDates(row: SandboxRegistrationRow | undefined): SandboxRegistrationRow | undefined {
  return row && { ...row, created_at: new Date(row.created_at), expires_at: new Date(row.expires_at) };
}

const COLUMNS = 'hostname, registrar_domain_id::text, whois_privacy, created_at, expires_at, nameservers, dns_records';

/** The sandbox registrar's book of registrations, in PostgreSQL so every node and every restart sees it. */
export class SandboxRegistrations {
  constructor(private readonly db: SqlExecutor) {}

  async find(hostname: string): Promise<SandboxRegistrationRow | undefined> {
    const rows = await this.db.query<SandboxRegistrationRow>(
      `select ${COLUMNS} from sandbox_registrations where hostname = ?`,
      [hostname],
    );
    return withDates(rows[0]);
  }

  /** Undefined when the hostname is already registered (the insert lost the race or came second). */
  async insert(input: {
    hostname: string;
    years: number;
    registrant: Registrant;
    whoisPrivacy: boolean;
    dnsRecords: RegistrarDnsRecord[];
  }): Promise<SandboxRegistrationRow | undefined> {
    const rows = await this.db.query<SandboxRegistrationRow>(
      `insert into sandbox_registrations (hostname, registrant, whois_privacy, expires_at, dns_records)
       values (?, ?::jsonb, ?, now() + make_interval(years => ?), ?::jsonb)
       on conflict (hostname) do nothing returning ${COLUMNS}`,
      [
        input.hostname,
        JSON.stringify(input.registrant),
        input.whoisPrivacy,
        input.years,
        JSON.stringify(input.dnsRecords),
      ],
    );
    return withDates(rows[0]);
  }

  /** Pushes the expiry out unless it would end up more than `maxYears` from now; undefined when refused. */
  async extend(hostname: string, years: number, maxYears: number): Promise<SandboxRegistrationRow | undefined> {
    const rows = await this.db.query<SandboxRegistrationRow>(
      `update sandbox_registrations set expires_at = expires_at + make_interval(years => ?), updated_at = now()
       where hostname = ? and expires_at + make_interval(years => ?) <= now() + make_interval(years => ?)
       returning ${COLUMNS}`,
      [years, hostname, years, maxYears],
    );
    return withDates(rows[0]);
  }

  async setDnsRecords(hostname: string, records: RegistrarDnsRecord[]): Promise<void> {
    await this.db.query(
      'update sandbox_registrations set dns_records = ?::jsonb, updated_at = now() where hostname = ?',
      [JSON.stringify(records), hostname],
    );
  }

  async setNameservers(hostname: string, nameservers: string[]): Promise<void> {
    await this.db.query(
      'update sandbox_registrations set nameservers = ?::text[], updated_at = now() where hostname = ?',
      [nameservers, hostname],
    );
  }
}

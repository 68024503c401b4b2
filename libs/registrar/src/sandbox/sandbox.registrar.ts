import { canonicalHostname } from '@app/kernel';
import type { SqlExecutor } from '@app/persistence';
import { DomainName, splitDomain } from '../domain-name';
import {
  DomainAvailability,
  RegisterRequest,
  Registrar,
  RegistrarDnsRecord,
  RegistrarRefusedError,
  Registration,
  WholesalePrice,
} from '../registrar.port';
import { MAX_REGISTRATION_YEARS, SANDBOX_TLDS, SandboxTld } from '../sandbox-price-table';
import { SandboxRegistrationRow, SandboxRegistrations } from './sandbox-registrations.repository';

/** What a new registration resolves to before the customer touches it: the registrar's parking page. */
export const SANDBOX_DEFAULT_DNS: readonly RegistrarDnsRecord[] = [
  { type: 'A', name: '@', value: '198.51.100.80', ttl: 1800 },
  { type: 'CNAME', name: 'www', value: 'parking.sandbox-registrar.example', ttl: 1800 },
];
export const SANDBOX_DEFAULT_NAMESERVERS: readonly string[] = [
  'dns1.sandbox-registrar.example',
  'dns2.sandbox-registrar.example',
];

/**
 * The registrar without credentials (DESIGN.md): prices from a per-TLD table, `taken*` names are
 * unavailable, `refuse*` names are refused at registration. Its book lives in PostgreSQL.
 */
export class SandboxRegistrar extends Registrar {
  readonly name = 'sandbox';
  readonly defaultNameservers = SANDBOX_DEFAULT_NAMESERVERS;
  private readonly book: SandboxRegistrations;

  constructor(db: SqlExecutor) {
    super();
    this.book = new SandboxRegistrations(db);
  }

  async check(hostname: string): Promise<DomainAvailability> {
    const name = splitDomain(hostname);
    const tld = name && SANDBOX_TLDS[name.tld];
    if (!name || !tld) return { hostname, available: false, whoisPrivacySupported: false };
    const available = !name.sld.startsWith('taken') && !(await this.book.find(name.hostname));
    return { hostname: name.hostname, available, whoisPrivacySupported: tld.whoisPrivacy };
  }

  async registrationPrice(hostname: string, years: number): Promise<WholesalePrice> {
    const { tld } = this.offered(hostname);
    return { wholesaleCents: tld.registerCents * validYears(years), currency: 'USD' };
  }

  async renewalPrice(hostname: string, years: number): Promise<WholesalePrice> {
    const { tld } = this.offered(hostname);
    return { wholesaleCents: tld.renewCents * validYears(years), currency: 'USD' };
  }

  async register(request: RegisterRequest): Promise<Registration> {
    const { name, tld } = this.offered(request.hostname);
    const years = validYears(request.years);
    if (name.sld.startsWith('taken')) throw unavailable(name.hostname);
    if (name.sld.startsWith('refuse')) {
      throw new RegistrarRefusedError(
        `The registry rejected the registrant contact for ${name.hostname}: the postal address could not be verified`,
        '3031510',
      );
    }
    if (request.whoisPrivacy && !tld.whoisPrivacy) {
      throw new RegistrarRefusedError(`WHOIS privacy is not available for .${name.tld} domains`, '2033407');
    }
    const row = await this.book.insert({
      hostname: name.hostname,
      years,
      registrant: request.registrant,
      whoisPrivacy: request.whoisPrivacy,
      dnsRecords: [...SANDBOX_DEFAULT_DNS],
    });
    if (!row) throw unavailable(name.hostname);
    return registration(row);
  }

  async findRegistration(hostname: string): Promise<Registration | undefined> {
    const name = splitDomain(hostname);
    const row = name && (await this.book.find(name.hostname));
    return row ? registration(row) : undefined;
  }

  async renew(hostname: string, years: number): Promise<Registration> {
    const row = await this.held(hostname);
    const extended = await this.book.extend(row.hostname, validYears(years), MAX_REGISTRATION_YEARS);
    if (!extended) {
      throw new RegistrarRefusedError(
        `Renewing ${row.hostname} for ${years} year(s) would extend it beyond the registry's ${MAX_REGISTRATION_YEARS}-year maximum`,
        '2020166',
      );
    }
    return registration(extended);
  }

  async liveDetails(hostname: string): Promise<Record<string, unknown>> {
    const row = await this.held(hostname);
    const custom = row.nameservers.length > 0;
    return {
      registrar: this.name,
      registrarDomainId: row.registrar_domain_id,
      status: row.expires_at.getTime() > Date.now() ? 'active' : 'expired',
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      locked: true,
      whoisPrivacy: row.whois_privacy,
      usingRegistrarDns: !custom,
      nameservers: custom ? row.nameservers : [...SANDBOX_DEFAULT_NAMESERVERS],
    };
  }

  async getDnsRecords(hostname: string): Promise<RegistrarDnsRecord[]> {
    const row = await this.held(hostname);
    assertRegistrarDns(row);
    return row.dns_records;
  }

  async setDnsRecords(hostname: string, records: RegistrarDnsRecord[]): Promise<void> {
    const row = await this.held(hostname);
    assertRegistrarDns(row);
    await this.book.setDnsRecords(row.hostname, records);
  }

  async setNameservers(hostname: string, nameservers: string[]): Promise<void> {
    const row = await this.held(hostname);
    const normalized = nameservers.map(canonicalHostname);
    // The registry checks that each nameserver exists; in the sandbox `refuse*` and `.invalid` ones do not.
    const missing = normalized.find((ns) => ns.startsWith('refuse') || ns.endsWith('.invalid'));
    if (missing) {
      throw new RegistrarRefusedError(
        `Nameserver ${missing} is not registered at the registry; create it or wait until it resolves`,
        '2030166',
      );
    }
    await this.book.setNameservers(row.hostname, normalized);
  }

  private offered(hostname: string): { name: DomainName; tld: SandboxTld } {
    const name = splitDomain(hostname);
    if (!name) throw new RegistrarRefusedError(`${hostname} is not a registrable domain name`, '2030280');
    const tld = SANDBOX_TLDS[name.tld];
    if (!tld) throw new RegistrarRefusedError(`TLD .${name.tld} is not supported`, '2030280');
    return { name, tld };
  }

  private async held(hostname: string): Promise<SandboxRegistrationRow> {
    const name = splitDomain(hostname);
    const row = name && (await this.book.find(name.hostname));
    if (!row) throw new RegistrarRefusedError(`Domain ${hostname} not found in this account`, '2019166');
    return row;
  }
}

function validYears(years: number): number {
  if (!Number.isInteger(years) || years < 1 || years > MAX_REGISTRATION_YEARS) {
    throw new RegistrarRefusedError(`Years must be between 1 and ${MAX_REGISTRATION_YEARS}`, '2015182');
  }
  return years;
}

function unavailable(hostname: string): RegistrarRefusedError {
  return new RegistrarRefusedError(`Domain ${hostname} is not available for registration`, '3019166');
}

function registration(row: SandboxRegistrationRow): Registration {
  return { registrarDomainId: row.registrar_domain_id, expiresAt: row.expires_at };
}

function assertRegistrarDns(row: SandboxRegistrationRow): void {
  if (row.nameservers.length > 0) {
    throw new RegistrarRefusedError(
      `${row.hostname} uses custom nameservers; the registrar's DNS records do not apply until the default nameservers are restored`,
      '2030288',
    );
  }
}

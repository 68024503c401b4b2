import { DomainName, splitDomain } from '../domain-name';
import {
  DomainAvailability,
  RegisterRequest,
  Registrar,
  RegistrarDnsRecord,
  RegistrarRefusedError,
  RegistrarUnavailableError,
  Registration,
  WholesalePrice,
} from '../registrar.port';
import { NamecheapClient, NamecheapCredentials } from './namecheap.client';
import { DOMAIN_NOT_FOUND, NamecheapApiError } from './namecheap-errors';
import { contactParams, hostParams, recordsOf } from './namecheap-params';
import { pricingTotal } from './namecheap-pricing';
import { NAMECHEAP_NO_PRIVACY_TLDS } from './namecheap-tlds';
import { parseNamecheapDate, yesNo } from './namecheap-values';
import { XmlNode, attr, child, children, isTrue, text } from './namecheap-xml';

/** Numbers meaning "this TLD or name cannot be registered here" on a check: an unavailable name, not a failure. */
const NOT_OFFERED = new Set(['2030280', '2011280']);

/** Namecheap's BasicDNS nameservers: a domain's while it uses Namecheap's own DNS. */
const NAMECHEAP_DEFAULT_NAMESERVERS: readonly string[] = ['dns1.registrar-servers.com', 'dns2.registrar-servers.com'];

/** The upstream registrar over Namecheap's XML API (DESIGN.md decision 5). */
export class NamecheapRegistrar extends Registrar {
  readonly name = 'namecheap';
  readonly defaultNameservers = NAMECHEAP_DEFAULT_NAMESERVERS;
  private readonly client: NamecheapClient;

  constructor(credentials: NamecheapCredentials) {
    super();
    this.client = new NamecheapClient(credentials);
  }

  async check(hostname: string): Promise<DomainAvailability> {
    const name = splitDomain(hostname);
    if (!name) return { hostname, available: false, whoisPrivacySupported: false };
    const whoisPrivacySupported = !NAMECHEAP_NO_PRIVACY_TLDS.has(name.tld);
    let response: XmlNode;
    try {
      response = await this.client.call('namecheap.domains.check', { DomainList: name.hostname });
    } catch (error) {
      if (error instanceof NamecheapApiError && error.has(NOT_OFFERED)) {
        return { hostname: name.hostname, available: false, whoisPrivacySupported };
      }
      throw this.portError(error);
    }
    const result = children(response, 'domaincheckresult').find(
      (r) => attr(r, 'Domain').toLowerCase() === name.hostname,
    );
    // Premium names cost many times the TLD's list price: we do not sell them.
    const available =
      !!result &&
      isTrue(attr(result, 'Available')) &&
      !isTrue(attr(result, 'IsPremiumName')) &&
      (attr(result, 'ErrorNo') || '0') === '0';
    return { hostname: name.hostname, available, whoisPrivacySupported };
  }

  registrationPrice(hostname: string, years: number): Promise<WholesalePrice> {
    return this.price('REGISTER', hostname, years);
  }

  renewalPrice(hostname: string, years: number): Promise<WholesalePrice> {
    return this.price('RENEW', hostname, years);
  }

  async register(request: RegisterRequest): Promise<Registration> {
    const name = this.split(request.hostname);
    if (request.whoisPrivacy && NAMECHEAP_NO_PRIVACY_TLDS.has(name.tld)) {
      throw new RegistrarRefusedError(`WHOIS privacy is not available for .${name.tld} domains`);
    }
    const response = await this.call('namecheap.domains.create', {
      DomainName: name.hostname,
      Years: String(request.years),
      ...contactParams(request.registrant),
      AddFreeWhoisguard: yesNo(request.whoisPrivacy),
      WGEnabled: yesNo(request.whoisPrivacy),
    });
    const result = child(response, 'domaincreateresult');
    if (!result || !isTrue(attr(result, 'Registered'))) {
      // Not refused, not confirmed (e.g. a non-real-time registry): the caller must look it up later.
      throw new RegistrarUnavailableError(`Namecheap did not confirm the registration of ${name.hostname}`);
    }
    const expiresAt = await this.expiryOrEstimate(name, request.years);
    return { registrarDomainId: attr(result, 'DomainID'), expiresAt };
  }

  async findRegistration(hostname: string): Promise<Registration | undefined> {
    const name = splitDomain(hostname);
    if (!name) return undefined;
    const info = await this.info(name, true);
    if (!info) return undefined;
    return { registrarDomainId: attr(info, 'ID'), expiresAt: expiryOf(info, name) };
  }

  async renew(hostname: string, years: number): Promise<Registration> {
    const name = this.split(hostname);
    const response = await this.call('namecheap.domains.renew', { DomainName: name.hostname, Years: String(years) });
    const result = child(response, 'domainrenewresult');
    if (!result || !isTrue(attr(result, 'Renew'))) {
      throw new RegistrarUnavailableError(`Namecheap did not confirm the renewal of ${name.hostname}`);
    }
    const expiry = parseNamecheapDate(text(child(result, 'domaindetails'), 'expireddate'));
    const expiresAt = expiry ?? expiryOf(await this.requiredInfo(name), name);
    return { registrarDomainId: attr(result, 'DomainID'), expiresAt };
  }

  async liveDetails(hostname: string): Promise<Record<string, unknown>> {
    const name = this.split(hostname);
    const info = await this.requiredInfo(name);
    const dns = child(info, 'dnsdetails');
    const details = child(info, 'domaindetails');
    return {
      registrar: this.name,
      registrarDomainId: attr(info, 'ID'),
      status: attr(info, 'Status'),
      createdAt: parseNamecheapDate(text(details, 'createddate'))?.toISOString(),
      expiresAt: parseNamecheapDate(text(details, 'expireddate'))?.toISOString(),
      locked: attr(info, 'Status').toLowerCase() === 'locked',
      whoisPrivacy: isTrue(attr(child(info, 'whoisguard'), 'Enabled')),
      usingRegistrarDns: isTrue(attr(dns, 'IsUsingOurDNS')),
      dnsProvider: attr(dns, 'ProviderType'),
      nameservers: children(dns, 'nameserver').map((ns) => attr(ns, '#text').trim()),
    };
  }

  async getDnsRecords(hostname: string): Promise<RegistrarDnsRecord[]> {
    const name = this.split(hostname);
    const response = await this.call('namecheap.domains.dns.getHosts', { SLD: name.sld, TLD: name.tld });
    return recordsOf(child(response, 'domaindnsgethostsresult'));
  }

  async setDnsRecords(hostname: string, records: RegistrarDnsRecord[]): Promise<void> {
    const name = this.split(hostname);
    const response = await this.call('namecheap.domains.dns.setHosts', {
      SLD: name.sld,
      TLD: name.tld,
      ...hostParams(records),
    });
    if (!isTrue(attr(child(response, 'domaindnssethostsresult'), 'IsSuccess'))) {
      throw new RegistrarUnavailableError(`Namecheap did not confirm the DNS records of ${name.hostname}`);
    }
  }

  async setNameservers(hostname: string, nameservers: string[]): Promise<void> {
    const name = this.split(hostname);
    const domain = { SLD: name.sld, TLD: name.tld };
    const response = nameservers.length
      ? // Namecheap refuses trailing dots and spaces in nameserver names.
        await this.call('namecheap.domains.dns.setCustom', {
          ...domain,
          Nameservers: nameservers.map((ns) => ns.trim().replace(/\.$/, '')).join(','),
        })
      : await this.call('namecheap.domains.dns.setDefault', domain);
    const result = child(response, 'domaindnssetcustomresult') ?? child(response, 'domaindnssetdefaultresult');
    if (!isTrue(attr(result, 'Updated'))) {
      throw new RegistrarUnavailableError(`Namecheap did not confirm the nameservers of ${name.hostname}`);
    }
  }

  private async price(action: 'REGISTER' | 'RENEW', hostname: string, years: number): Promise<WholesalePrice> {
    const name = this.split(hostname);
    const response = await this.call('namecheap.users.getPricing', {
      ProductType: 'DOMAIN',
      ProductCategory: 'DOMAINS',
      ActionName: action,
      ProductName: name.tld.toUpperCase(),
    });
    const cents = pricingTotal(response, action, name.tld, years);
    if (cents === undefined) {
      throw new RegistrarRefusedError(
        `Namecheap has no ${action.toLowerCase()} price for .${name.tld} over ${years} year(s)`,
      );
    }
    return { wholesaleCents: cents, currency: 'USD' };
  }

  private async expiryOrEstimate(name: DomainName, years: number): Promise<Date> {
    try {
      const info = await this.info(name, false);
      if (info) return expiryOf(info, name);
    } catch {
      // The registration succeeded; an estimate is better than failing it over a follow-up read.
    }
    const estimate = new Date();
    estimate.setUTCFullYear(estimate.getUTCFullYear() + years);
    return estimate;
  }

  private async requiredInfo(name: DomainName): Promise<XmlNode> {
    const info = await this.info(name, false);
    if (!info) throw new RegistrarRefusedError(`Domain ${name.hostname} not found in this account`, '2019166');
    return info;
  }

  /** domains.getInfo; with `notFoundIsUndefined`, "not found / not ours" answers undefined instead of refusing. */
  private async info(name: DomainName, notFoundIsUndefined: boolean): Promise<XmlNode | undefined> {
    try {
      const response = await this.client.call('namecheap.domains.getInfo', { DomainName: name.hostname });
      return child(response, 'domaingetinforesult');
    } catch (error) {
      if (notFoundIsUndefined && error instanceof NamecheapApiError && error.has(DOMAIN_NOT_FOUND)) return undefined;
      throw this.portError(error);
    }
  }

  private async call(command: string, params: Record<string, string>): Promise<XmlNode> {
    try {
      return await this.client.call(command, params);
    } catch (error) {
      throw this.portError(error);
    }
  }

  private portError(error: unknown): unknown {
    return error instanceof NamecheapApiError ? error.toPortError() : error;
  }

  private split(hostname: string): DomainName {
    const name = splitDomain(hostname);
    if (!name) throw new RegistrarRefusedError(`${hostname} is not a registrable domain name`);
    return name;
  }
}

function expiryOf(info: XmlNode, name: DomainName): Date {
  const expiry = parseNamecheapDate(text(child(info, 'domaindetails'), 'expireddate'));
  if (!expiry) throw new RegistrarUnavailableError(`Namecheap gave no expiry date for ${name.hostname}`);
  return expiry;
}

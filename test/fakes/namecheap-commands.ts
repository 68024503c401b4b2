import { parse } from 'tldts';
import {
  CONTACT_ROLES,
  DEFAULT_NAMESERVERS,
  FAKE_NAMECHEAP_PRICES,
  FakeHost,
  FakeNamecheapDomain,
  FakeTldPrice,
  REQUIRED_CONTACT_FIELDS,
  SETHOSTS_TYPES,
  dollars,
  mdy,
  mdyTime,
  termPriceCents,
} from './namecheap-state';

/** An `<Error Number="...">text</Error>` answer (Status="ERROR", still HTTP 200). */
export class NamecheapFakeError extends Error {
  constructor(
    readonly number: string,
    readonly text: string,
  ) {
    super(text);
  }
}

export const xmlEscape = (value: string | number | boolean) =>
  String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const attrs = (values: Record<string, string | number | boolean>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}="${xmlEscape(v)}"`)
    .join(' ');

type Params = Record<string, string>;

/** The fake's account: domains it holds, prices it charges; each command answers the inside of CommandResponse. */
export class FakeNamecheapAccount {
  readonly domains = new Map<string, FakeNamecheapDomain>();
  prices: Record<string, FakeTldPrice> = structuredClone(FAKE_NAMECHEAP_PRICES);
  private nextId = 103_877;
  private nextHostId = 877_748;

  run(command: string, p: Params): string {
    switch (command) {
      case 'namecheap.domains.check':
        return this.check(p);
      case 'namecheap.users.getPricing':
        return this.pricing(p);
      case 'namecheap.domains.create':
        return this.create(p);
      case 'namecheap.domains.renew':
        return this.renew(p);
      case 'namecheap.domains.getInfo':
        return this.info(p);
      case 'namecheap.domains.dns.getHosts':
        return this.getHosts(p);
      case 'namecheap.domains.dns.setHosts':
        return this.setHosts(p);
      case 'namecheap.domains.dns.setCustom':
        return this.setCustom(p);
      case 'namecheap.domains.dns.setDefault':
        return this.setDefault(p);
      default:
        throw new NamecheapFakeError('2030166', `Command ${command} is not supported by this fake`);
    }
  }

  private check(p: Params): string {
    return (p.DomainList ?? '')
      .split(',')
      .filter(Boolean)
      .map((raw) => {
        const hostname = raw.trim().toLowerCase();
        const { sld, tld } = this.split(hostname);
        if (!this.prices[tld]) throw new NamecheapFakeError('2030280', 'TLD is not supported in API');
        const premium = sld.startsWith('premium');
        const available = !sld.startsWith('taken') && !this.domains.has(hostname);
        return `<DomainCheckResult ${attrs({
          Domain: hostname,
          Available: available,
          ErrorNo: 0,
          Description: '',
          IsPremiumName: premium,
          PremiumRegistrationPrice: premium ? '13000.0000' : '0',
          PremiumRenewalPrice: premium ? '13000.0000' : '0',
          PremiumRestorePrice: premium ? '65.0000' : '0',
          PremiumTransferPrice: premium ? '13000.0000' : '0',
          IcannFee: '0',
          EapFee: '0',
        })}/>`;
      })
      .join('');
  }

  private pricing(p: Params): string {
    const action = (p.ActionName ?? 'REGISTER').toUpperCase();
    const tld = (p.ProductName ?? '').toLowerCase();
    const price = this.prices[tld];
    const perYear = action === 'RENEW' ? price?.renew : price?.register;
    const prices =
      price && perYear
        ? Array.from({ length: 10 }, (_, i) => {
            const cents = termPriceCents(perYear, i + 1);
            const fee = termPriceCents(price.icann, 1);
            return `<Price ${attrs({
              Duration: i + 1,
              DurationType: 'YEAR',
              Price: dollars(cents),
              PricingType: 'MULTIPLE',
              AdditionalCost: dollars(fee),
              RegularPrice: dollars(cents),
              RegularPricingType: 'MULTIPLE',
              RegularAdditionalCost: dollars(fee),
              RegularAdditionalCostType: 'MULTIPLE',
              YourPrice: dollars(cents),
              YourPricingType: 'MULTIPLE',
              YourAdditonalCost: dollars(fee),
              YourAdditonalCostType: 'MULTIPLE',
              PromotionPrice: '0.0',
              Currency: 'USD',
            })}/>`;
          }).join('')
        : '';
    const product = prices ? `<Product Name="${xmlEscape(tld)}">${prices}</Product>` : '';
    return `<UserGetPricingResult><ProductType Name="DOMAIN"><ProductCategory Name="${xmlEscape(action)}">${product}</ProductCategory></ProductType></UserGetPricingResult>`;
  }

  private create(p: Params): string {
    const hostname = (p.DomainName ?? '').toLowerCase();
    const { sld, tld } = this.split(hostname);
    const years = Number(p.Years ?? '2');
    if (!this.prices[tld]) throw new NamecheapFakeError('2030280', 'TLD is not supported in API');
    if (!Number.isInteger(years) || years < 1 || years > 10) {
      throw new NamecheapFakeError('2015182', 'Years is invalid, must be between 1 and 10');
    }
    for (const role of CONTACT_ROLES) {
      for (const field of REQUIRED_CONTACT_FIELDS) {
        if (!p[`${role}${field}`]) throw new NamecheapFakeError('2011167', `${role}${field} is Missing`);
      }
      if (!/^\+\d{1,3}\.\d{4,14}$/.test(p[`${role}Phone`])) {
        throw new NamecheapFakeError(
          '2015182',
          `${role}Phone: Phone number is invalid, required format is +NNN.NNNNNNNNNN`,
        );
      }
    }
    if (sld.startsWith('taken') || this.domains.has(hostname)) {
      throw new NamecheapFakeError('3019166', `Domain ${hostname} is not available for registration`);
    }
    if (sld.startsWith('refuse')) {
      throw new NamecheapFakeError(
        '3031510',
        'Registrant contact failed registry validation: postal code does not match the city',
      );
    }
    if (sld.startsWith('premium')) {
      throw new NamecheapFakeError('2515623', 'Domain is premium while considered regular');
    }
    const contacts = Object.fromEntries(Object.entries(p).filter(([k]) => CONTACT_ROLES.some((r) => k.startsWith(r))));
    const created = new Date();
    const expires = new Date(created);
    expires.setUTCFullYear(expires.getUTCFullYear() + years);
    const whoisguard = p.AddFreeWhoisguard === 'yes' && p.WGEnabled === 'yes' && !['us', 'ca'].includes(tld);
    const domain: FakeNamecheapDomain = {
      id: this.nextId++,
      hostname,
      sld,
      tld,
      created,
      expires,
      whoisguard,
      contacts,
      emailType: 'NONE',
      hosts: [
        this.host({ Name: '@', Type: 'URL', Address: `http://www.${hostname}/`, MXPref: 10, TTL: 1800 }),
        this.host({ Name: 'www', Type: 'CNAME', Address: 'parkingpage.namecheap.com.', MXPref: 10, TTL: 1800 }),
      ],
    };
    this.domains.set(hostname, domain);
    const nonRealTime = sld.startsWith('nonrealtime');
    const charged = termPriceCents(this.prices[tld].register, years) * years;
    return `<DomainCreateResult ${attrs({
      Domain: hostname,
      Registered: !nonRealTime,
      ChargedAmount: dollars(charged),
      DomainID: domain.id,
      OrderID: 22158,
      TransactionID: 51284,
      WhoisguardEnable: whoisguard,
      NonRealTimeDomain: nonRealTime,
    })}/>`;
  }

  private renew(p: Params): string {
    const domain = this.owned(
      (p.DomainName ?? '').toLowerCase(),
      '2016166',
      'Domain is not associated with your account',
    );
    const years = Number(p.Years);
    const limit = new Date();
    limit.setUTCFullYear(limit.getUTCFullYear() + 10);
    const expires = new Date(domain.expires);
    expires.setUTCFullYear(expires.getUTCFullYear() + years);
    if (!Number.isInteger(years) || years < 1 || expires > limit) {
      throw new NamecheapFakeError(
        '3028166',
        'Failed to renew error from Enom: registration period cannot exceed 10 years',
      );
    }
    domain.expires = expires;
    return `<DomainRenewResult ${attrs({
      DomainName: domain.hostname,
      DomainID: domain.id,
      Renew: true,
      OrderID: 109116,
      TransactionID: 119569,
      ChargedAmount: dollars(termPriceCents(this.prices[domain.tld].renew, years) * years),
    })}><DomainDetails><ExpiredDate>${mdyTime(expires)}</ExpiredDate><NumYears>0</NumYears></DomainDetails></DomainRenewResult>`;
  }

  private info(p: Params): string {
    const domain = this.owned((p.DomainName ?? '').toLowerCase(), '2019166', 'Domain not found');
    const custom = domain.customNameservers;
    const nameservers = (custom ?? DEFAULT_NAMESERVERS)
      .map((ns) => `<Nameserver>${xmlEscape(ns)}</Nameserver>`)
      .join('');
    return `<DomainGetInfoResult ${attrs({
      Status: domain.expires > new Date() ? 'Ok' : 'Expired',
      ID: domain.id,
      DomainName: domain.hostname,
      OwnerName: 'apiuser',
      IsOwner: true,
      IsPremium: false,
    })}><DomainDetails><CreatedDate>${mdy(domain.created)}</CreatedDate><ExpiredDate>${mdy(domain.expires)}</ExpiredDate><NumYears>0</NumYears></DomainDetails><LockDetails /><Whoisguard Enabled="${domain.whoisguard ? 'True' : 'NotAlloted'}"><ID>${domain.whoisguard ? domain.id + 5_000_000 : 0}</ID></Whoisguard><DnsDetails ${attrs(
      {
        ProviderType: custom ? 'CUSTOM' : 'FREE',
        IsUsingOurDNS: !custom,
        HostCount: domain.hosts.length,
        EmailType: domain.emailType,
        DynamicDNSStatus: false,
        IsFailover: false,
      },
    )}>${nameservers}</DnsDetails><Modificationrights All="true" /></DomainGetInfoResult>`;
  }

  private getHosts(p: Params): string {
    const domain = this.bySldTld(p);
    this.assertOurDns(domain);
    const hosts = domain.hosts
      .map(
        (h) =>
          `<host ${attrs({ ...h, AssociatedAppTitle: '', FriendlyName: '', IsActive: true, IsDDNSEnabled: false })} />`,
      )
      .join('');
    return `<DomainDNSGetHostsResult ${attrs({ Domain: domain.hostname, EmailType: domain.emailType, IsUsingOurDNS: true })}>${hosts}</DomainDNSGetHostsResult>`;
  }

  private setHosts(p: Params): string {
    const domain = this.bySldTld(p);
    this.assertOurDns(domain);
    const emailType = (p.EmailType ?? 'NONE').toUpperCase();
    const hosts: FakeHost[] = [];
    for (let n = 1; p[`HostName${n}`] !== undefined; n++) {
      const type = (p[`RecordType${n}`] ?? '').toUpperCase();
      const address = p[`Address${n}`] ?? '';
      const ttl = Number(p[`TTL${n}`] ?? '1800');
      if (!SETHOSTS_TYPES.has(type)) throw new NamecheapFakeError('2050900', `Invalid RecordType ${type}`);
      if (!address) throw new NamecheapFakeError('2050900', 'Invalid Address');
      if (type === 'A' && !/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) {
        throw new NamecheapFakeError('2050900', `Invalid Address ${address}`);
      }
      if (!Number.isInteger(ttl) || ttl < 60 || ttl > 60000)
        throw new NamecheapFakeError('2050900', `Invalid TTL ${ttl}`);
      // Like Namecheap: MX hosts are kept only when the mail setting says MX.
      if (type === 'MX' && emailType !== 'MX') continue;
      hosts.push(
        this.host({
          Name: p[`HostName${n}`],
          Type: type,
          Address: address,
          MXPref: Number(p[`MXPref${n}`] ?? '10'),
          TTL: ttl,
        }),
      );
    }
    domain.hosts = hosts;
    domain.emailType = emailType;
    return `<DomainDNSSetHostsResult Domain="${xmlEscape(domain.hostname)}" IsSuccess="true" />`;
  }

  private setCustom(p: Params): string {
    const domain = this.bySldTld(p);
    const nameservers = (p.Nameservers ?? p.NameServers ?? '').split(',').filter(Boolean);
    if (nameservers.length < 2) {
      throw new NamecheapFakeError(
        '3031510',
        'Error From Enom when Errorcount <> 0: at least two nameservers are required',
      );
    }
    for (const ns of nameservers) {
      if (ns !== ns.trim() || ns.endsWith('.')) throw new NamecheapFakeError('3031510', `Invalid nameserver ${ns}`);
      if (ns.startsWith('refuse') || ns.endsWith('.invalid')) {
        throw new NamecheapFakeError('3031510', `Nameserver ${ns} is not registered at the registry`);
      }
    }
    domain.customNameservers = nameservers.map((ns) => ns.toLowerCase());
    return `<DomainDNSSetCustomResult Domain="${xmlEscape(domain.hostname)}" Updated="true" />`;
  }

  private setDefault(p: Params): string {
    const domain = this.bySldTld(p);
    domain.customNameservers = undefined;
    return `<DomainDNSSetDefaultResult Domain="${xmlEscape(domain.hostname)}" Updated="true" />`;
  }

  private host(h: Omit<FakeHost, 'HostId'>): FakeHost {
    return { HostId: this.nextHostId++, ...h };
  }

  private split(hostname: string): { sld: string; tld: string } {
    const parsed = parse(hostname);
    if (!parsed.domain || parsed.domain !== hostname || !parsed.publicSuffix) {
      throw new NamecheapFakeError('2011169', `Domain name ${hostname} is invalid`);
    }
    return { sld: parsed.domainWithoutSuffix ?? '', tld: parsed.publicSuffix };
  }

  private owned(hostname: string, number: string, text: string): FakeNamecheapDomain {
    const domain = this.domains.get(hostname);
    if (!domain) throw new NamecheapFakeError(number, text);
    return domain;
  }

  private bySldTld(p: Params): FakeNamecheapDomain {
    return this.owned(`${p.SLD ?? ''}.${p.TLD ?? ''}`.toLowerCase(), '2019166', 'Domain not found');
  }

  private assertOurDns(domain: FakeNamecheapDomain): void {
    if (domain.customNameservers) {
      throw new NamecheapFakeError(
        '2030288',
        'Cannot complete this command as this domain is not using proper DNS servers',
      );
    }
  }
}

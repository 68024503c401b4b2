import { Infer, int, obj, oneOfValues, str } from '@app/kernel';
import type { Registrant } from '@app/hostname-rules';

/** The record types the registrar's DNS takes (SPEC 2.7); the purchases DTO validates against this list. */
export const REGISTRAR_DNS_RECORD_TYPES = [
  'A',
  'AAAA',
  'CNAME',
  'MX',
  'TXT',
  'NS',
  'SRV',
  'URL',
  'URL301',
  'FRAME',
] as const;
export type RegistrarDnsRecordType = (typeof REGISTRAR_DNS_RECORD_TYPES)[number];

/** One record of the registrar's own DNS (SPEC 2.7); `ttl` is always set once normalized. */
export const registrarDnsRecordSchema = obj(
  {
    type: oneOfValues(...REGISTRAR_DNS_RECORD_TYPES),
    name: str('`@` for the apex, `www`, ...'),
    value: str(),
    ttl: int(),
    priority: int('MX only'),
  },
  ['priority'],
);
export type RegistrarDnsRecord = Infer<typeof registrarDnsRecordSchema>;

export interface DomainAvailability {
  hostname: string;
  available: boolean;
  /** Whether the TLD supports WHOIS privacy (a purchase asking for it on a TLD without it is a 400). */
  whoisPrivacySupported: boolean;
}

export interface WholesalePrice {
  /** What the registrar charges us for `years`, before our fee. */
  wholesaleCents: number;
  currency: 'USD';
}

export interface Registration {
  registrarDomainId: string;
  expiresAt: Date;
}

export interface RegisterRequest {
  hostname: string;
  years: number;
  registrant: Registrant;
  whoisPrivacy: boolean;
}

/** The registrar said no to this request (taken, invalid contact, nameserver not resolving, ...): permanent. */
export class RegistrarRefusedError extends Error {
  constructor(
    /** The registrar's own reason, shown to the caller. */
    readonly reason: string,
    /** The registrar's error number or code, when it gives one. */
    readonly registrarCode?: string,
  ) {
    super(reason);
    this.name = 'RegistrarRefusedError';
  }
}

/** The registrar could not be reached or failed on its side: the same request may succeed later. */
export class RegistrarUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrarUnavailableError';
  }
}

/**
 * The upstream registrar, behind a port: `sandbox` (DESIGN.md rules) or `namecheap` (its XML API).
 * Every method throws RegistrarRefusedError or RegistrarUnavailableError on failure.
 */
export abstract class Registrar {
  /** `sandbox` or `namecheap`: stored on the purchase as `registrar`. */
  abstract readonly name: string;
  /** The registrar's own nameservers: those in effect while no custom ones are set (and its DNS records apply). */
  abstract readonly defaultNameservers: readonly string[];
  abstract check(hostname: string): Promise<DomainAvailability>;
  abstract registrationPrice(hostname: string, years: number): Promise<WholesalePrice>;
  abstract renewalPrice(hostname: string, years: number): Promise<WholesalePrice>;
  abstract register(request: RegisterRequest): Promise<Registration>;
  /**
   * The registration of `hostname` in our account, or undefined when we do not hold it. Recovery asks this
   * before registering again, so a crash between "registered" and "saved" never registers twice.
   */
  abstract findRegistration(hostname: string): Promise<Registration | undefined>;
  /** Extends the registration; answers the new expiry. */
  abstract renew(hostname: string, years: number): Promise<Registration>;
  /** What the registrar reports right now (expiry, lock, nameservers, ...). */
  abstract liveDetails(hostname: string): Promise<Record<string, unknown>>;
  abstract getDnsRecords(hostname: string): Promise<RegistrarDnsRecord[]>;
  /** Replaces the whole record set. */
  abstract setDnsRecords(hostname: string, records: RegistrarDnsRecord[]): Promise<void>;
  /** Custom nameservers; an empty list restores the registrar's defaults (and its DNS). */
  abstract setNameservers(hostname: string, nameservers: string[]): Promise<void>;
}

export type { Registrant };

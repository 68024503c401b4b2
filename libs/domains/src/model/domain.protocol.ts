import { CertificateOutcome, defineProtocol, DOMAIN_KIND } from '@app/kernel';
import type { ServedCertificate } from '@app/hostname-rules';
import { DnsObservation, DnsProblem } from '@app/hostname-rules';
import { DomainSettings, RegistrarDns } from './domain.record';
import { DomainView } from './domain.view';

type WithDomain = { domain: DomainView };

/**
 * What the API, the monitor and the certificate manager send a domain actor, and what each gets
 * back: the client's `ask(domainProtocol, ...)` and `DomainActor`'s handlers share this one map.
 */
export type DomainProtocol = {
  create: {
    command: {
      type: 'create';
      workspaceId: string;
      hostname: string;
      apex: boolean;
      settings: DomainSettings;
      /**
       * What the API's DNS lookup saw just before: the domain starts from it as from a first probe, so
       * the monitor's first probe writes only if something changed. Absent when that lookup failed.
       */
      observed?: { dns: DnsObservation; problem?: DnsProblem };
      /** Bought through us: the purchase wrote the records at our registrar. */
      registrarDns?: RegistrarDns;
    };
    reply: WithDomain;
  };
  patch: { command: { type: 'patch'; workspaceId: string; changes: Partial<DomainSettings> }; reply: WithDomain };
  delete: { command: { type: 'delete'; workspaceId: string }; reply: { deleted: true; id: string; hostname: string } };
  check: { command: { type: 'check'; workspaceId: string }; reply: WithDomain };
  /** The purchase that connected this domain moved its DNS (custom nameservers: `null`) or back to our registrar. */
  registrar_dns: {
    command: { type: 'registrar_dns'; workspaceId: string; registrarDns: RegistrarDns | null };
    reply: WithDomain;
  };
  /** Another workspace proved control of `hostname` (TXT): this domain fails and lets the name go. */
  release: { command: { type: 'release'; hostname: string }; reply: WithDomain };
  /**
   * The monitor's probe. `served`: what the hostname's TLS served, when DNS was correct and the
   * domain holds a certificate. `problem`: the DNS mistake the probe named, when DNS is wrong.
   * `unchanged`: the probe moved nothing worth writing.
   */
  observe: {
    command: {
      type: 'observe';
      dns: DnsObservation;
      originBlocked: boolean;
      served?: ServedCertificate['outcome'];
      problem?: DnsProblem;
      /** DNS is not ours yet but `_acme-challenge` is delegated to us: the certificate may come first. */
      delegated?: boolean;
    };
    reply: WithDomain | { unchanged: true };
  };
  /** The outcome of a certificate order, or the CA's renewal advice (libs/kernel certificate-outcome.ts). */
  certificate: {
    command: CertificateOutcome;
    reply: WithDomain;
  };
};

export const domainProtocol = defineProtocol<DomainProtocol>(DOMAIN_KIND);

export type DomainCommand = DomainProtocol[keyof DomainProtocol]['command'];
export type DomainReply = DomainProtocol[keyof DomainProtocol]['reply'];

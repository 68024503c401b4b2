import { defineProtocol } from '@app/kernel';
import type { ServedCertificate } from '@app/domain-model';
import { DnsObservation, DnsProblem } from '@app/domain-model';
import { DomainSettings } from './domain.record';
import { DomainView } from './domain.view';

type WithDomain = { domain: DomainView };

/**
 * What the API, the monitor and the certificate manager send a domain actor, and what each gets
 * back: the client's `ask(domainProtocol, ...)` and `DomainActor`'s handlers share this one map.
 */
export type DomainProtocol = {
  create: {
    command: { type: 'create'; workspaceId: string; hostname: string; apex: boolean; settings: DomainSettings };
    reply: WithDomain;
  };
  patch: { command: { type: 'patch'; workspaceId: string; changes: Partial<DomainSettings> }; reply: WithDomain };
  delete: { command: { type: 'delete'; workspaceId: string }; reply: { deleted: true; id: string; hostname: string } };
  check: { command: { type: 'check'; workspaceId: string }; reply: WithDomain };
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
    };
    reply: WithDomain | { unchanged: true };
  };
  /** The outcome of a certificate order (sent by the node's CertificateManager). */
  certificate: {
    command:
      | { type: 'certificate'; result: 'issued'; expiresAt: string }
      | { type: 'certificate'; result: 'failed'; reason: string }
      | { type: 'certificate'; result: 'deferred'; reason: string; retryAt: string };
    reply: WithDomain;
  };
};

export const DOMAIN_KIND = 'domain';
export const domainProtocol = defineProtocol<DomainProtocol>(DOMAIN_KIND);

export type DomainCommand = DomainProtocol[keyof DomainProtocol]['command'];
export type DomainReply = DomainProtocol[keyof DomainProtocol]['reply'];

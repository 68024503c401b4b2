import type { ServedCertificate } from '@app/dns';
import { DnsObservation, DnsProblem } from '@app/domain-model';
import { DomainSettings } from './domain.record';
import { DomainView } from './domain.view';

export const DOMAIN_KIND = 'domain';

/** What the API and the monitor send a domain actor. */
export type DomainCommand =
  | { type: 'create'; workspaceId: string; hostname: string; apex: boolean; settings: DomainSettings }
  | { type: 'patch'; workspaceId: string; changes: Partial<DomainSettings> }
  | { type: 'delete'; workspaceId: string }
  | { type: 'check'; workspaceId: string }
  /** Another workspace proved control of `hostname` (TXT): this domain fails and lets the name go. */
  | { type: 'release'; hostname: string }
  /** `served`: what the hostname's TLS served, when DNS was correct and the domain holds a certificate. */
  /** `problem`: the DNS mistake the probe named, when DNS is wrong. */
  | {
      type: 'observe';
      dns: DnsObservation;
      originBlocked: boolean;
      served?: ServedCertificate['outcome'];
      problem?: DnsProblem;
    }
  /** The outcome of a certificate order (sent by the node's CertificateManager). */
  | { type: 'certificate'; result: 'issued'; expiresAt: string }
  | { type: 'certificate'; result: 'failed'; reason: string }
  | { type: 'certificate'; result: 'deferred'; reason: string; retryAt: string };

export type DomainReply =
  { domain: DomainView } | { deleted: true; id: string; hostname: string } | { unchanged: true };

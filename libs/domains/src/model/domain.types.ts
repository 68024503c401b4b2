import type { CertificateObservation, DnsObservation, DnsProblem } from '@app/hostname-rules';
import type { Instant } from '@app/kernel';

/** The state and events of a connected domain (SPEC 3.1, 3.3, 6) as plain, JSON-safe data. */

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed', 'expired'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const MONITOR_STATUSES = [
  'unknown',
  'dns_not_resolving',
  'dns_incorrect',
  'pending_ssl',
  'active_ssl',
  'target_not_loading',
  'ssl_failed',
  'ssl_expired',
  'ready_to_switch',
] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** The customer messages of SPEC 3.3; target_not_loading has none there, so it says what it means. */
export const MONITOR_MESSAGES: Record<MonitorStatus, string> = {
  unknown: 'Setup in progress',
  dns_not_resolving: 'Add the CNAME record at your registrar',
  dns_incorrect: 'Update your CNAME',
  pending_ssl: 'SSL is being issued',
  active_ssl: 'Your site is live',
  target_not_loading: 'Your origin cannot be reached: it points at a private or reserved address',
  ssl_failed: 'Check CAA records',
  ssl_expired: 'Re-verify DNS',
  ready_to_switch: 'Ready: the certificate is issued, switch your DNS to us now',
};

/**
 * Why the domain is failed or expired; decides the way back out. `moved_to_another_owner`: another
 * workspace proved control of the hostname's DNS (TXT) and connected it: final.
 */
export const STATUS_REASONS = [
  'dns_never_correct',
  'dns_drift',
  'origin_blocked',
  'certificate_expired',
  'billing_ended',
  'moved_to_another_owner',
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

export interface DomainState {
  readonly status: DomainStatus;
  readonly statusReason?: StatusReason;
  readonly monitorStatus: MonitorStatus;
  readonly monitorMessage: string;
  readonly deleted: boolean;
  readonly createdAt: Instant;
  /** When DNS first pointed at the edge; undefined while it never has. */
  readonly firstSeenCorrectDnsAt?: Instant;
  readonly consecutiveWrongDnsProbes: number;
  readonly lastProbeAt?: Instant;
  readonly certificateExpiresAt?: Instant;
  /** When the current certificate is renewed: the CA's advice (ARI) or a third of its lifetime left. */
  readonly certificateRenewAt?: Instant;
  readonly certificateError?: string;
  /** The DNS mistake the last wrong probe named; its message replaces the generic one. */
  readonly dnsProblem?: DnsProblem;
}

/** What the monitor, the certificate manager, billing and the API tell a domain. */
export type DomainInput =
  | {
      type: 'probe_observed';
      dns: DnsObservation;
      certificate: CertificateObservation;
      certificateMessage?: string;
      /** What exactly is wrong when `dns` is not correct, when the probe could tell. */
      problem?: DnsProblem;
    }
  /** Another workspace proved control of the hostname and takes it over. */
  | { type: 'hostname_claimed' }
  | { type: 'origin_blocked' }
  /** The origin was changed to one that passes the SSRF rules. */
  | { type: 'origin_allowed' }
  | { type: 'certificate_issued'; expiresAt: Instant; renewAt?: Instant }
  /** The CA moved the renewal time of the current certificate (ACME Renewal Information). */
  | { type: 'certificate_renewal_advised'; renewAt: Instant }
  | { type: 'certificate_failed'; reason: string }
  | { type: 'certificate_expired' }
  | { type: 'billing_ended' }
  | { type: 'deleted' };

export type DomainEventType =
  | 'domain.verified'
  | 'domain.failed'
  | 'domain.expired'
  | 'domain.monitor_updated'
  | 'domain.ready_to_switch'
  | 'domain.deleted';

/** What happened, with the state after it; the actor adds ids and the domain object for webhooks. */
export interface DomainEvent {
  readonly type: DomainEventType;
  readonly at: Instant;
  readonly status: DomainStatus;
  readonly previousStatus: DomainStatus;
  readonly monitorStatus: MonitorStatus;
  readonly monitorMessage: string;
  readonly reason?: StatusReason;
  readonly certificateRenewed?: boolean;
}

export interface Transition {
  readonly state: DomainState;
  readonly events: readonly DomainEvent[];
}

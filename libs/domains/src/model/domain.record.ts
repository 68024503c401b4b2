import type { CertificateAttempt } from '@app/kernel';
import { DomainState } from './domain.types';

export const DOMAIN_MODES = ['proxy', 'redirect'] as const;
export type DomainMode = (typeof DOMAIN_MODES)[number];

export const REDIRECT_STATUSES = [301, 302] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/** What the customer configures; PATCH changes only the fields it sends. */
export interface DomainSettings {
  originUrl: string;
  metadata: Record<string, unknown>;
  mode: DomainMode;
  keepHost: boolean;
  redirectWww: boolean;
  redirectStatus: RedirectStatus;
  /** The project the domain belongs to (`prj_...`), or null. */
  projectId: string | null;
}

/** The domain actor's state: its settings and the state machine, persisted as one snapshot. */
export interface DomainRecord extends DomainSettings {
  id: string;
  workspaceId: string;
  hostname: string;
  apex: boolean;
  /** Where in each monitor interval this domain is probed, in [0, 1): spreads probes evenly. */
  probePhase: number;
  machine: DomainState;
  createdAt: string;
  updatedAt: string;
  verifiedAt?: string;
  /** No new order before this time (a refusal, an outage, a rate limit, the budget). */
  certificateRetryAt?: string;
  /** What the last failed order means for the customer, while the domain waits for the next. */
  certificateNote?: string;
  certificateErrorCode?: string;
  /** A check by the customer may order before `certificateRetryAt` (they may have fixed the cause). */
  certificateRetryOnCheck?: boolean;
  /** The most recent order attempts, newest last (at most CERTIFICATE_ATTEMPTS_KEPT). */
  certificateAttempts?: CertificateAttempt[];
  /** Our name of the CA that issued the current certificate. */
  certificateIssuer?: string;
  /** Attempts since the last certificate was issued: the back-off of the next retry grows with it. */
  certificateFailures?: number;
  /**
   * A certificate was issued (or renewed) and no probe has read what the edge serves since: the next
   * probe that sees DNS right reads it, whatever the served-check schedule says, and clears this.
   */
  servedCheckPending?: true;
  /** When another workspace proved control of the hostname and took it over; the row no longer holds it. */
  releasedAt?: string;
  /** Set on deletion while the hostname's DNS still pointed at the edge: see `TakeoverGuard`. */
  takeoverGuard?: TakeoverGuard;
  /** Bought through us and on our registrar's DNS: see `RegistrarDns`. */
  registrarDns?: RegistrarDns;
}

/**
 * A domain bought through this service (purchase auto-connect) whose DNS is our registrar's: we wrote
 * its records there, so the owner has nothing to add. Ends when custom nameservers move the DNS away.
 */
export interface RegistrarDns {
  purchaseId: string;
}

/**
 * A domain deleted while its DNS still points at the edge leaves a dangling record someone else
 * could claim. Until `until`, only its workspace connects the hostname again without the TXT
 * ownership proof; the former owner is told (the domain.deleted event, the console's page).
 */
export interface TakeoverGuard {
  until: string;
  /** `dns_points_at_edge`: seen at the deletion; `last_seen_at_edge`: DNS did not answer, the last probe saw it. */
  reason: 'dns_points_at_edge' | 'last_seen_at_edge';
  /** When another workspace proved control and the guard ended early. */
  releasedAt?: string;
}

export const DEFAULT_SETTINGS: Omit<DomainSettings, 'originUrl'> = {
  metadata: {},
  mode: 'proxy',
  keepHost: false,
  redirectWww: false,
  redirectStatus: 301,
  projectId: null,
};

/** Attempts kept on the record: enough for support to see a pattern, small enough for every snapshot. */
export const CERTIFICATE_ATTEMPTS_KEPT = 10;

import { DomainState } from '@app/domain-model';

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
  /** The CA asked us to wait (rate limit): no new order before this time. */
  certificateRetryAt?: string;
  certificateNote?: string;
  /** When another workspace proved control of the hostname and took it over; the row no longer holds it. */
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

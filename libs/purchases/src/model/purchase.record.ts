import type { Registrant } from '@app/hostname-rules';
import { SagaState } from './purchase-saga.types';
import { RenewalState } from './renewal.saga';

/** Prices, charges and refunds are in US dollars only (the registrar's wholesale currency). */
export const CURRENCIES = ['USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface AutoConnectSettings {
  originUrl: string;
  keepHost: boolean;
}

/** The purchase actor's state, persisted as one snapshot in `purchases.state`. */
export interface PurchaseRecord {
  id: string;
  workspaceId: string;
  hostname: string;
  years: number;
  wholesaleCents: number;
  feeCents: number;
  totalCents: number;
  currency: Currency;
  registrar: string;
  /** Kept whole: recovery registers with it; reads show a subset. */
  registrant: Registrant;
  whoisPrivacyEnabled: boolean;
  autoRenew: boolean;
  customerReference?: string;
  /** The settings of autoConnect, or of the latest connect call. */
  autoConnect?: AutoConnectSettings;
  saga: SagaState;
  renewals: RenewalState[];
  /** Custom nameservers; empty: the registrar's own (and its DNS records are authoritative). */
  nameservers: string[];
  /** An automatic renewal failed: the next try waits until then. */
  retryAt?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * The Domain an autoConnect creates has an id derived from the purchase, so a retried create is the
 * same one; the n-th connect call's Domain has its own (`c<n>`), as a rolled-back one stays deleted.
 */
export const connectedDomainIdOf = (purchaseId: string, connectCall?: number) =>
  `dom_${purchaseId.replace(/^pur_/, '')}${connectCall ? `c${connectCall}` : ''}`;

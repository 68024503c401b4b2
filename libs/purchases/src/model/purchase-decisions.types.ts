import type { Decision } from '@app/kernel';
import type { FeePolicy, PurchasePrice } from './purchase-pricing';
import type { PurchaseOrder } from './purchase.protocol';
import type { PurchaseRecord } from './purchase.record';

/**
 * What a purchase decision asks its runner for, as data. A query's answer is fed back into the same
 * decision (the decider runs again with it); an effect is carried out before the decision is stored.
 */
export type PurchaseQuery =
  /** Availability and the live price of a new purchase (409, 400 or 502/503 before anything is written). */
  | { type: 'quote'; order: PurchaseOrder }
  /** Whether the Domain a connect call made earlier still exists (the customer may have deleted it). */
  | { type: 'domain_exists'; domainId: string }
  /** The registrar's wholesale price of a renewal. */
  | { type: 'renewal_price'; hostname: string; years: number };

/** The answers so far, one per query type. */
export interface PurchaseAnswers {
  quote?: PurchasePrice;
  domainExists?: boolean;
  renewalWholesaleCents?: number;
}

export type Need = { need: PurchaseQuery };

/**
 * A command's outside work, run before its state is stored: a refusal fails the command with
 * nothing written. `registrar_dns` tells the connected Domain whose DNS it is now (custom
 * nameservers take it away from the registrar's records).
 */
export type PurchaseEffect =
  | { type: 'set_nameservers'; hostname: string; nameservers: string[] }
  | {
      type: 'registrar_dns';
      domainId: string;
      workspaceId: string;
      hostname: string;
      /** The Domain's records are set at our registrar again; null: custom nameservers hold its DNS. */
      registrarDns: { purchaseId: string } | null;
    };

/** A decision the host stores once its effects ran. */
export interface PurchaseOutcome<R> {
  decision: Decision<PurchaseRecord, R>;
  effects: PurchaseEffect[];
}

/** A saga starts (a new purchase, a connect call, a renewal): `start` is written before its first step. */
export interface SagaStart {
  start: PurchaseRecord;
}

/** What every decision reads besides the record: the id, the time, our fee and the registrar's settings. */
export interface PurchaseEnv {
  id: string;
  now: Date;
  fees: FeePolicy;
  registrar: string;
  /** The registrar's own nameservers, which a purchase without custom ones shows. */
  registrarNameservers: readonly string[];
}

import { defineProtocol } from '@app/kernel';
import type { Registrant } from '@app/hostname-rules';
import { AutoConnectSettings } from './purchase.record';
import { PurchaseView, RenewalView } from './purchase.view';

export const PURCHASE_KIND = 'purchase';

/** What the API validated: the purchase actor quotes, charges and registers it. */
export interface PurchaseOrder {
  hostname: string;
  years: number;
  registrant: Registrant;
  whoisPrivacy: boolean;
  autoRenew: boolean;
  maxTotalCents?: number;
  customerReference?: string;
  autoConnect?: AutoConnectSettings;
}

type WithPurchase = { purchase: PurchaseView };
/** A renewal's own charge and expiry (the purchase shows the original registration's). */
type Renewed = { purchase: PurchaseView; renewal: RenewalView };

/**
 * What the API and the node's sweeper send a purchase actor, and what each gets back: the client's
 * `ask(purchaseProtocol, ...)` and `PurchaseActor`'s handlers share this one map.
 */
export type PurchaseProtocol = {
  create: { command: { type: 'create'; workspaceId: string; order: PurchaseOrder }; reply: WithPurchase };
  /** The sweeper: finish or compensate a saga left behind by a crash or an outage. */
  resume: { command: { type: 'resume' }; reply: WithPurchase };
  set_auto_renew: {
    command: { type: 'set_auto_renew'; workspaceId: string; autoRenew: boolean };
    reply: WithPurchase;
  };
  /**
   * `requestKey` (from Idempotency-Key) makes a retried request answer the same renewal; `maxTotalCents`
   * refuses a new renewal priced above it (409 price_changed, nothing charged).
   */
  renew: {
    command: { type: 'renew'; workspaceId: string; years: number; requestKey?: string; maxTotalCents?: number };
    reply: Renewed;
  };
  /** The auto-renew job: renews one year if still due and autoRenew is still on. */
  auto_renew: { command: { type: 'auto_renew'; renewDays: number }; reply: Renewed | { skipped: true } };
  /** `nameservers`: those in effect after the change (the registrar's defaults after an empty list). */
  set_nameservers: {
    command: { type: 'set_nameservers'; workspaceId: string; nameservers: string[] };
    reply: WithPurchase & { nameservers: string[] };
  };
  /** Connects a completed purchase made without autoConnect; `requestKey` as for renew. */
  connect: {
    command: { type: 'connect'; workspaceId: string; settings: AutoConnectSettings; requestKey?: string };
    reply: WithPurchase;
  };
};

export const purchaseProtocol = defineProtocol<PurchaseProtocol>(PURCHASE_KIND);

export type PurchaseCommand = PurchaseProtocol[keyof PurchaseProtocol]['command'];
export type PurchaseReply = PurchaseProtocol[keyof PurchaseProtocol]['reply'];

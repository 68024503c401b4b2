import type { Registrant } from '@app/registrar';
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

/** What the API and the node's sweeper send a purchase actor. */
export type PurchaseCommand =
  | { type: 'create'; workspaceId: string; order: PurchaseOrder }
  /** The sweeper: finish or compensate a saga left behind by a crash or an outage. */
  | { type: 'resume' }
  | { type: 'set_auto_renew'; workspaceId: string; autoRenew: boolean }
  /** `requestKey` (from Idempotency-Key) makes a retried request answer the same renewal. */
  | { type: 'renew'; workspaceId: string; years: number; requestKey?: string }
  /** The auto-renew job: renews one year if still due and autoRenew is still on. */
  | { type: 'auto_renew'; renewDays: number }
  | { type: 'set_nameservers'; workspaceId: string; nameservers: string[] }
  /** Connects a completed purchase made without autoConnect; `requestKey` as for renew. */
  | { type: 'connect'; workspaceId: string; settings: AutoConnectSettings; requestKey?: string };

export type PurchaseReply =
  | {
      purchase: PurchaseView;
      /** A renewal's own charge and expiry (the purchase shows the original registration's). */
      renewal?: RenewalView;
      /** The nameservers in effect after a change: the registrar's defaults after an empty list. */
      nameservers?: string[];
    }
  | { skipped: true };

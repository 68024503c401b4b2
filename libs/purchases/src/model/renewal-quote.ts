import type { PurchasePrice } from './purchase-pricing';

/** A renewal's price and period, shown before the customer confirms it (nothing charged yet). */
export interface RenewalQuote extends PurchasePrice {
  hostname: string;
  years: number;
  /** The expiry now. */
  expiresAt: string;
  /** The expiry the renewal would give: `expiresAt` moved out by `years` (the registry's rule). */
  renewedUntil: string;
}

/** An expiry moved out by whole years, as registries extend a registration (29 February falls to 28). */
export function extendedBy(expiresAt: string, years: number): string {
  const from = new Date(expiresAt);
  const to = new Date(from);
  to.setUTCFullYear(from.getUTCFullYear() + years);
  if (to.getUTCMonth() !== from.getUTCMonth()) to.setUTCDate(0);
  return to.toISOString();
}

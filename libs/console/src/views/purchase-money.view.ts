import type { PurchaseView } from '@app/purchases';
import { html } from '../html';

export const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

export const yearsText = (years: number) => `${years} year${years === 1 ? '' : 's'}`;

/** The price line of a confirmation page (buying, renewing): the total, and what of it is the registrar's and ours. */
export const priceTerms = (q: { totalCents: number; wholesaleCents: number; feeCents: number; currency: string }) =>
  html`<dt>Price</dt>
    <dd>
      <strong>${money(q.totalCents, q.currency)}</strong>
      <span class="muted"
        >(registrar ${money(q.wholesaleCents, q.currency)}, our fee ${money(q.feeCents, q.currency)})</span
      >
    </dd>`;

/**
 * What a purchase cost, as the money moved ("Paid" used to be shown for failed and refunded
 * purchases): paid only once the charge went through, refunds said, nothing charged for a failure.
 */
export function purchaseCharge(p: Pick<PurchaseView, 'status' | 'totalCents' | 'currency'>): string {
  const amount = money(p.totalCents, p.currency);
  switch (p.status) {
    case 'completed':
      return `Paid ${amount}`;
    case 'refunded':
      return `Charged ${amount}, refunded in full`;
    case 'failed':
      return 'Not charged: the purchase failed';
    case 'pending':
      return `${amount}, being charged`;
  }
}

/** One renewal's money by its step: charged only when renewed, refunded when the registrar refused. */
export function renewalCharge(r: { status: string; totalCents: number; currency: string }): string {
  const amount = money(r.totalCents, r.currency);
  switch (r.status) {
    case 'renewed':
      return `Paid ${amount}`;
    case 'refunded':
      return `Charged ${amount}, refunded`;
    case 'failed':
      return 'Not charged';
    default:
      return `${amount}, in progress`;
  }
}

/** Years held and money paid with the renewals that went through, so both change after a renewal. */
export function heldAndPaid(
  p: Pick<PurchaseView, 'status' | 'years' | 'totalCents' | 'currency'>,
  renewals: { status: string; years: number; totalCents: number }[],
): { years: number; paid: string } {
  const renewed = renewals.filter((r) => r.status === 'renewed');
  const years = p.years + renewed.reduce((n, r) => n + r.years, 0);
  if (p.status !== 'completed')
    return { years: p.status === 'failed' || p.status === 'refunded' ? 0 : p.years, paid: purchaseCharge(p) };
  const cents = p.totalCents + renewed.reduce((n, r) => n + r.totalCents, 0);
  const detail = renewed.length ? ` (${renewed.length} renewal${renewed.length === 1 ? '' : 's'} included)` : '';
  return { years, paid: `Paid ${money(cents, p.currency)}${detail}` };
}

/** A registrar field name in words: `usingRegistrarDns` reads "Using registrar DNS". */
export function labelOf(key: string): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.replace(/^./, (c) => c.toUpperCase()).replace(/\b(dns|whois|id|ns|ssl|url)\b/gi, (w) => w.toUpperCase());
}

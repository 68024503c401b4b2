export interface FeePolicy {
  percent: number;
  minCents: number;
}

export interface PurchasePrice {
  wholesaleCents: number;
  feeCents: number;
  totalCents: number;
  currency: 'USD';
}

/** Our fee over the registrar's price: a percentage, rounded up to the cent, never below the floor. */
export function priceWithFee(wholesaleCents: number, policy: FeePolicy): PurchasePrice {
  const feeCents = Math.max(policy.minCents, Math.ceil((wholesaleCents * policy.percent) / 100));
  return { wholesaleCents, feeCents, totalCents: wholesaleCents + feeCents, currency: 'USD' };
}

import { DomainError } from '@app/kernel';

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

/** 409 price_changed: the live total is above the caller's ceiling (a purchase's or a renewal's); nothing was charged. */
export function priceChanged(totalCents: number, maxTotalCents: number): DomainError {
  return new DomainError(
    'price_changed',
    `The live total is ${totalCents} cents, above maxTotalCents ${maxTotalCents}; nothing was charged`,
    { totalCents, maxTotalCents, currency: 'USD' },
  );
}

import type { CardSummary } from '@app/payments';

/** A card in words: "Visa ending 4242, expires 12/2029". */
export function cardText(card: CardSummary): string {
  const brand = BRANDS[card.brand] ?? card.brand.charAt(0).toUpperCase() + card.brand.slice(1);
  return `${brand} ending ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Card',
};

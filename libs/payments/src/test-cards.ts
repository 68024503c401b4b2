import type { CardSummary } from './payments.port';

/**
 * Stripe's test payment methods (https://docs.stripe.com/testing) as Stripe describes them: brand and
 * last four digits. The sandbox answers these, and any other `pm_` id as a card it cannot name.
 */
const TEST_CARDS: Readonly<Record<string, { brand: string; last4: string }>> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_visa_debit: { brand: 'visa', last4: '5556' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995' },
  pm_card_chargeDeclinedExpiredCard: { brand: 'visa', last4: '0069' },
  pm_card_chargeDeclinedIncorrectCvc: { brand: 'visa', last4: '0127' },
  pm_card_chargeDeclinedFraudulent: { brand: 'visa', last4: '0019' },
  pm_card_chargeDeclinedLostCard: { brand: 'visa', last4: '9987' },
  pm_card_chargeDeclinedStolenCard: { brand: 'visa', last4: '9979' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184' },
};

/** Stripe accepts any future expiry for its test cards; the sandbox names one fixed date (no clock). */
const TEST_EXPIRY = { expMonth: 12, expYear: 2034 };

/** A sandbox card: a test card as Stripe names it, else an unnamed card. */
export function testCard(paymentMethod: string): CardSummary {
  const known = TEST_CARDS[paymentMethod] ?? { brand: 'unknown', last4: '0000' };
  return { paymentMethod, ...known, ...TEST_EXPIRY };
}

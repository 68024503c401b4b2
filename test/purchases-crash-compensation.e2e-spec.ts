import { COMPENSATION_AND_RENEWAL_ROUNDS, describePurchaseCrashes } from './support/purchase-crashes';

describePurchaseCrashes(
  'purchase saga crash safety, refunds, rollbacks and renewals: a node SIGKILLed between every pair of steps (real processes)',
  COMPENSATION_AND_RENEWAL_ROUNDS,
);

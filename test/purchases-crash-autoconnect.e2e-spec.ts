import { AUTO_CONNECT_ROUNDS, describePurchaseCrashes } from './support/purchase-crashes';

describePurchaseCrashes(
  'purchase saga crash safety, autoConnect: a node SIGKILLed between every pair of steps (real processes)',
  AUTO_CONNECT_ROUNDS,
);

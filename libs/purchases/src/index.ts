/** What other processes load of domain purchases: the modules (the saga and protocol stay inside). */
export { PurchasesApiModule, PurchasesNodeModule } from './purchases.module';
export { PURCHASE_KIND, purchaseProtocol } from './model/purchase.protocol';
export type { PurchaseCommand, PurchaseProtocol, PurchaseReply } from './model/purchase.protocol';
// The value lists the API document names (libs/openapi).
export { CURRENCIES } from './model/purchase.record';
export { PURCHASE_STATUSES } from './model/purchase-saga.types';
export { RENEWAL_FAILURE_CODES, RENEWAL_STEPS } from './model/renewal.saga';
export { SAGA_STEP_LISTENER } from './saga-step-listener';
export type { SagaStepListener } from './saga-step-listener';

/** What other processes load of domain purchases: the modules (the saga and protocol stay inside). */
export { PurchasesApiModule, PurchasesNodeModule } from './purchases.module';
// The api's use cases, DTOs and reads, shared with the console.
export { PurchaseQueries } from './api/purchase-queries.usecase';
export { CreatePurchase } from './api/create-purchase.usecase';
export { purchaseIdFor } from './api/purchase-input';
export { RenewPurchase } from './api/renew-purchase.usecase';
export { SetAutoRenew } from './api/set-auto-renew.usecase';
export { SetNameservers } from './api/set-nameservers.usecase';
export { ConnectPurchase } from './api/connect-purchase.usecase';
export { PurchaseRepository } from './store/purchase.repository';
export { PutDnsRecordsDto } from './api/dto/dns-records.dto';
export { RenewPurchaseDto } from './api/dto/purchase-requests.dto';
export { AutoConnectDto, CreatePurchaseDto } from './api/dto/create-purchase.dto';
export { purchaseSchema, toPurchaseView, toRenewalView, type PurchaseView } from './model/purchase.view';
export type { RenewalQuote } from './model/renewal-quote';
// The value lists the API document names (libs/openapi).
export { CURRENCIES } from './model/purchase.record';
export { PURCHASE_STATUSES } from './model/purchase-saga.types';
export { RENEWAL_FAILURE_CODES, RENEWAL_STEPS } from './model/renewal.saga';
export { SAGA_STEP_LISTENER } from './saga-step-listener';
export type { SagaStepListener } from './saga-step-listener';

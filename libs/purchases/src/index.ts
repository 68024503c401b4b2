export * from './model/purchase-saga.types';
export * from './model/purchase.saga';
export * from './model/purchase-pricing';
export * from './purchase.commands';
export * from './purchase.record';
export * from './purchase.view';
export * from './purchase.repository';
export * from './purchases.module';
export { SAGA_STEP_LISTENER, SagaStepListener } from './saga-step-listener';

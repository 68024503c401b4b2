export * from './model/purchase-saga.types';
export * from './model/purchase.saga';
export * from './model/purchase-pricing';
export * from './model/purchase.protocol';
export * from './model/purchase.record';
export * from './model/purchase.view';
export * from './store/purchase.repository';
export * from './purchases.module';

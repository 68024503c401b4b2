export * from './secret-box';
export * from './crypto.module';

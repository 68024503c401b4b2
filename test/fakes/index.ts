export * from './provider-module';

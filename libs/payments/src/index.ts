export * from './payments.port';

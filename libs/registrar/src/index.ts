export * from './registrar.port';

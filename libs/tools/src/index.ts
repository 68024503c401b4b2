export * from './tools.module';
export * from './record-values';

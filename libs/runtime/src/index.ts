export * from './runtime.module';
export * from './bootstrap';

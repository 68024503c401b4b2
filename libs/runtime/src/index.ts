export * from './runtime.module';
export * from './features';
export * from './bootstrap';

export * from './bus';
export * from './in-process.bus';
export * from './nats.bus';
export * from './bus.module';

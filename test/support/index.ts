export * from './test-database';
export * from './test-app';
export * from './processes';
export * from './cluster';
export * from './dns-server';
export * from './counter-load';
export * from './nats-server';
export * from './domain-fixtures';

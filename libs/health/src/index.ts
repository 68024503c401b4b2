export * from './health.module';
export { metricsRegistry } from './metrics.controller';

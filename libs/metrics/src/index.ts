export { metricsRegistry } from './metrics-registry';
export { MetricsModule } from './metrics.module';

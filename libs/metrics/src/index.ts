export { metricsRegistry } from './metrics-registry';
export { MetricsModule } from './metrics.module';
export { RateMeter, currentRates, rateMeter } from './rate-meter';

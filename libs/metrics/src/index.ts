export { metricsRegistry } from './metrics-registry';
export { MetricsModule } from './metrics.module';
export { processWide, sampledGauge } from './process-wide';
export { currentRates, rateMeter } from './rate-meter';

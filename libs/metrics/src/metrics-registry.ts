import { Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; features register their own metrics on it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

import { Gauge } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/**
 * A getter of one value built on first use and kept for the life of the process: a feature's set of
 * metrics is made once, since prom-client refuses a second metric of the same name on a registry.
 */
export function processWide<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** A gauge on the process's registry whose value is read from `read` each time /metrics is scraped. */
export function sampledGauge(name: string, help: string, read: () => number): Gauge {
  const gauge: Gauge = new Gauge({ name, help, registers: [metricsRegistry], collect: () => gauge.set(read()) });
  return gauge;
}

import { Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; features register their own metrics on it. */
export const metricsRegistry = new Registry();
// The event-loop delay histogram samples on a libuv timer. prom-client's default (every 10 ms) wakes
// an idle process 100 times a second: ~0.45% of a core on its own, most of an idle node's CPU. Every
// 100 ms still catches the stalls worth alerting on (they last longer than that).
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 100 });

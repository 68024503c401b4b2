import { onHttpResponse } from '@app/http';
import { Histogram } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/** Latency of every answered request on PORT, by method, route template and status class. */
const httpSeconds = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to response, by method, route template and status class (2xx, 4xx, ...)',
  labelNames: ['method', 'route', 'status_class'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

onHttpResponse(({ method, route, statusCode, seconds }) =>
  httpSeconds.observe({ method, route, status_class: `${Math.floor(statusCode / 100)}xx` }, seconds),
);

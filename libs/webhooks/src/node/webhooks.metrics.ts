import { metricsRegistry, processWide, rateMeter } from '@app/metrics';
import { Counter, Histogram } from 'prom-client';

/** Relay and delivery figures of this process; created once. */
export class WebhookMetrics {
  readonly deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Delivery attempts by outcome (delivered, http_error, timeout, network_error, blocked, invalid_url, disabled)',
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  });
  readonly deadLetters = new Counter({
    name: 'webhook_dead_letters_total',
    help: 'Deliveries that gave up after the retry window (or whose endpoint was disabled)',
    registers: [metricsRegistry],
  });
  readonly attemptSeconds = new Histogram({
    name: 'webhook_delivery_seconds',
    help: 'Time of one delivery attempt: SSRF check, connect, request and response',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metricsRegistry],
  });
  readonly eventLagSeconds = new Histogram({
    name: 'webhook_event_to_delivery_seconds',
    help: 'From the state change (event created) to its successful delivery',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600, 86_400],
    registers: [metricsRegistry],
  });
  readonly relayed = new Counter({
    name: 'webhook_events_relayed_total',
    help: 'Outbox events relayed (published to JetStream when on NATS, deliveries created)',
    registers: [metricsRegistry],
  });

  /** Delivery attempts per second over the last minute, as this node reports it to the cluster status. */
  readonly attemptRate = rateMeter('webhookAttempts');

  /** The one set of this process. */
  static readonly get = processWide(() => new WebhookMetrics());
}

import { metricsRegistry } from '@app/metrics';
import { Counter, Gauge } from 'prom-client';

/** What the certificate manager holds right now, read when /metrics is scraped. */
export interface OrderGauges {
  readonly queued: number;
  readonly inFlight: number;
}

/**
 * Certificate orders of this node: every attempt by CA and outcome (the alerts on issuance failures
 * by CA read it), the waits for the budget, and the queue. Created once per process.
 */
export class CertificateOrderMetrics {
  private static instance?: CertificateOrderMetrics;

  readonly attempts = new Counter({
    name: 'certificate_order_attempts_total',
    help: 'Order attempts by CA (ACME_ISSUERS name, or caa when CAA allowed none) and outcome (issued, or the failure code)',
    labelNames: ['issuer', 'outcome'],
    registers: [metricsRegistry],
  });
  readonly budgetWaits = new Counter({
    name: 'certificate_budget_waits_total',
    help: 'Orders held back by our count of a CA limit, by limit (new_orders, certificates_per_domain, failed_validations)',
    labelNames: ['limit'],
    registers: [metricsRegistry],
  });
  private source?: () => OrderGauges;

  private constructor() {
    const queued: Gauge = new Gauge({
      name: 'certificate_orders_queued',
      help: 'Orders waiting in the fair queue for a slot or for the budget',
      registers: [metricsRegistry],
      collect: () => queued.set(this.source?.().queued ?? 0),
    });
    const inFlight: Gauge = new Gauge({
      name: 'certificate_orders_in_flight',
      help: 'Orders running now (at most ACME_CONCURRENCY)',
      registers: [metricsRegistry],
      collect: () => inFlight.set(this.source?.().inFlight ?? 0),
    });
  }

  bind(source: () => OrderGauges): void {
    this.source = source;
  }

  static get(): CertificateOrderMetrics {
    return (CertificateOrderMetrics.instance ??= new CertificateOrderMetrics());
  }
}

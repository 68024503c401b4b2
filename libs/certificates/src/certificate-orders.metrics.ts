import { metricsRegistry, processWide, sampledGauge } from '@app/metrics';
import { Counter } from 'prom-client';

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
    sampledGauge(
      'certificate_orders_queued',
      'Orders waiting in the fair queue for a slot or for the budget',
      () => this.source?.().queued ?? 0,
    );
    sampledGauge(
      'certificate_orders_in_flight',
      'Orders running now (at most ACME_CONCURRENCY)',
      () => this.source?.().inFlight ?? 0,
    );
  }

  bind(source: () => OrderGauges): void {
    this.source = source;
  }

  /** The one set of this process. */
  static readonly get = processWide(() => new CertificateOrderMetrics());
}

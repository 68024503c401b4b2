import { metricsRegistry, rateMeter } from '@app/metrics';
import { Counter, Histogram } from 'prom-client';

/** Probe rates and outcomes of this node's monitor; created once per process. */
export class MonitorMetrics {
  private static instance?: MonitorMetrics;

  readonly probes = new Counter({
    name: 'monitor_probes_total',
    help: 'Domain probes by outcome (correct, incorrect, not_resolving, origin_blocked, lookup_failed, skipped_stale, moved)',
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  });
  readonly servedChecks = new Counter({
    name: 'monitor_served_certificate_checks_total',
    help: 'Certificates read off the hostnames over TLS, by outcome (valid, wrong_name, outside_validity, unreachable)',
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  });
  readonly probeSeconds = new Histogram({
    name: 'monitor_probe_seconds',
    help: 'Time of one probe, DNS and the actor update included',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  });

  /** Probes per second over the last minute, as this node reports it to the cluster status. */
  readonly probeRate = rateMeter('monitorProbes');

  static get(): MonitorMetrics {
    return (MonitorMetrics.instance ??= new MonitorMetrics());
  }
}

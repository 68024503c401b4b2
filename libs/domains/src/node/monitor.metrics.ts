import { metricsRegistry, processWide, rateMeter, sampledGauge } from '@app/metrics';
import { Counter, Gauge, Histogram } from 'prom-client';

const LAG_READ_MS = 2_000;

/** The promise's value, or a rejection once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error('timed out')), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What the monitor holds right now, read when /metrics is scraped (nothing on the probe path). */
export interface MonitorGauges {
  readonly inFlight: number;
  readonly queued: number;
  readonly scheduled: number;
}

/** Probe rates and outcomes of this node's monitor; created once per process. */
export class MonitorMetrics {
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

  /** Named when due domains were claimed by a row update; kept for dashboards. */
  readonly claimedDomains = new Counter({
    name: 'monitor_claimed_domains_total',
    help: "Due domains taken from the node's in-memory schedule for a probe",
    registers: [metricsRegistry],
  });
  private source?: () => MonitorGauges;
  private lagSource?: () => Promise<number>;

  private constructor() {
    sampledGauge(
      'monitor_probes_in_flight',
      'Probes running now (at most MONITOR_CONCURRENCY)',
      () => this.source?.().inFlight ?? 0,
    );
    sampledGauge(
      'monitor_scheduled_domains',
      "Domains of this node's shards in its in-memory probe schedule (loaded when it takes a shard on)",
      () => this.source?.().scheduled ?? 0,
    );
    sampledGauge(
      'monitor_claimed_waiting',
      'Due domains taken from the schedule and waiting for a probe slot (only with a backlog)',
      () => this.source?.().queued ?? 0,
    );
    const lag: Gauge = new Gauge({
      name: 'monitor_lag_seconds',
      help: "How long the earliest probe not done is overdue, from the shards' watermarks (written every few seconds), 0 when none is (cluster-wide: use max)",
      registers: [metricsRegistry],
      // A database that does not answer within 2 s must not fail the whole scrape: no sample then.
      collect: async () => {
        if (!this.lagSource) return;
        const seconds = await within(LAG_READ_MS, this.lagSource()).catch(() => undefined);
        if (seconds === undefined) lag.reset();
        else lag.set(seconds);
      },
    });
    sampledGauge(
      'monitor_interval_seconds',
      'MONITOR_INTERVAL_SECONDS: each domain is probed once per interval (the lag alert compares with it)',
      () => this.interval ?? 0,
    );
  }
  private interval?: number;

  /** The monitor's interval and how to read its lag (one query per scrape). */
  bindLag(intervalSeconds: number, lag: () => Promise<number>): void {
    this.interval = intervalSeconds;
    this.lagSource = lag;
  }

  /** The monitor whose in-flight and queued counts the gauges report. */
  bind(source: () => MonitorGauges): void {
    this.source = source;
  }

  /** Probes per second over the last minute, as this node reports it to the cluster status. */
  readonly probeRate = rateMeter('monitorProbes');

  /** The one set of this process. */
  static readonly get = processWide(() => new MonitorMetrics());
}

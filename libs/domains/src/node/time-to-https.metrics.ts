import { metricsRegistry, processWide } from '@app/metrics';
import { Histogram } from 'prom-client';

/** Correct DNS to a certificate the edge serves, per domain (the time-to-HTTPS SLO); created once per process. */
export class TimeToHttpsMetrics {
  readonly seconds = new Histogram({
    name: 'certificates_time_to_https_seconds',
    help: "From a domain's DNS first seen pointing at the edge to its first certificate stored for the edge",
    buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21_600, 86_400],
    registers: [metricsRegistry],
  });

  /** The one set of this process. */
  static readonly get = processWide(() => new TimeToHttpsMetrics());
}

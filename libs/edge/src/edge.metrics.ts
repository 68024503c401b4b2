import { metricsRegistry, processWide } from '@app/metrics';
import { Counter, Gauge, Histogram } from 'prom-client';

/** Traffic of this edge process; created once per process. */
export class EdgeMetrics {
  readonly requests = new Counter({
    name: 'edge_requests_total',
    help:
      'Edge requests by outcome (proxied, redirected, https_redirect, www_redirect, websocket, acme_challenge, ' +
      'acme_challenge_missing, unknown_host, not_active, bad_request, misdirected, too_large, origin_unreachable, ' +
      'origin_blocked, origin_timeout, edge_error: the edge failed on its side and answered 503)',
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  });
  readonly upstreamSeconds = new Histogram({
    name: 'edge_upstream_seconds',
    help: 'From sending a request to the origin until its response headers arrived',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [metricsRegistry],
  });
  readonly handshakes = new Counter({
    name: 'edge_tls_handshakes_total',
    help: 'TLS handshakes on the HTTPS port by outcome (ok, failed)',
    labelNames: ['outcome'],
    registers: [metricsRegistry],
  });
  readonly sni = new Counter({
    name: 'edge_sni_lookups_total',
    help: 'Certificate choices by SNI name (certificate, unknown_host, no_certificate, error)',
    labelNames: ['result'],
    registers: [metricsRegistry],
  });

  readonly replicaEntries = new Gauge({
    name: 'edge_replica_hostnames',
    help: 'Live hostnames in this edge process copy of the replica (routes and sealed certificates)',
    registers: [metricsRegistry],
  });

  readonly replicaChanges = new Counter({
    name: 'edge_replica_changes_total',
    help: 'Replica entries this edge applied (its start-up read counts each hostname once; a catch-up only what changed)',
    registers: [metricsRegistry],
  });

  /** The one set of this process. */
  static readonly get = processWide(() => new EdgeMetrics());
}

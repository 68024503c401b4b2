import { metricsRegistry, processWide } from '@app/metrics';
import { Counter, Gauge } from 'prom-client';
import { QUERY_OUTCOMES } from './model/rcodes';

/** The challenge zone's DNS listener in this process; created once per process. */
export class ChallengeDnsMetrics {
  readonly queries = new Counter({
    name: 'challenge_dns_queries_total',
    help: `Queries to the challenge zone's DNS listener by transport (udp, tcp) and outcome (${QUERY_OUTCOMES.join(', ')})`,
    labelNames: ['transport', 'outcome'],
    registers: [metricsRegistry],
  });
  readonly reloads = new Counter({
    name: 'challenge_dns_reloads_total',
    help: 'Reloads of the in-memory copy of live DNS-01 challenges by result (ok, failed)',
    labelNames: ['result'],
    registers: [metricsRegistry],
  });
  readonly liveValues = new Gauge({
    name: 'challenge_dns_live_values',
    help: 'TXT values of live DNS-01 challenges in the copy of this process',
    registers: [metricsRegistry],
  });

  /** The one set of this process. */
  static readonly get = processWide(() => new ChallengeDnsMetrics());
}

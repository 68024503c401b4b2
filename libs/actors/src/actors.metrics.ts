import { metricsRegistry, processWide, sampledGauge } from '@app/metrics';
import { Counter, Gauge, Histogram } from 'prom-client';

export interface HostGauges {
  residentCount: number;
  mailboxDepth(): number;
}

/** The node's actor metrics; one set per process (prom-client names are global to a registry). */
export class ActorMetrics {
  private host?: HostGauges;
  private members?: () => number;

  readonly shardsOwned = new Gauge({
    name: 'actors_shards_owned',
    help: 'Shards this node serves',
    registers: [metricsRegistry],
  });
  readonly commands = new Counter({
    name: 'actors_commands_total',
    help: 'Commands handled, by kind and outcome (ok, rejected, error)',
    labelNames: ['kind', 'outcome'],
    registers: [metricsRegistry],
  });
  readonly commandSeconds = new Histogram({
    name: 'actors_command_seconds',
    help: 'Time to handle a command, persistence included',
    labelNames: ['kind'],
    buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  });
  readonly clientRetries = new Counter({
    name: 'actors_client_retries_total',
    help: 'Command retries by the client (no responders, timeouts, handoffs)',
    labelNames: ['reason'],
    registers: [metricsRegistry],
  });
  readonly leaseRenewalSeconds = new Histogram({
    name: 'actors_lease_renewal_seconds',
    help: "Time of one renewal of all this node's leases, from sending to the answer (a lease is lost past ttl - safety)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 8],
    registers: [metricsRegistry],
  });
  readonly fencedWrites = new Counter({
    name: 'actors_fenced_writes_total',
    help: 'Snapshot writes refused because the lease was lost',
    registers: [metricsRegistry],
  });
  readonly activations = new Counter({
    name: 'actors_activations_total',
    help: 'Actors loaded from their snapshots',
    labelNames: ['kind'],
    registers: [metricsRegistry],
  });
  readonly membershipChanges = new Counter({
    name: 'actors_membership_changes_total',
    help: 'Members this node saw join or leave the cluster, by member (NODE_ID) and change (joined, left)',
    labelNames: ['member', 'change'],
    registers: [metricsRegistry],
  });
  readonly passivations = new Counter({
    name: 'actors_passivations_total',
    help: 'Idle actors taken out of memory (ACTOR_IDLE_SECONDS), or the least recently used at ACTOR_MAX_RESIDENT',
    labelNames: ['kind'],
    registers: [metricsRegistry],
  });
  readonly evictions = new Counter({
    name: 'actors_evictions_total',
    help:
      'Actors dropped from memory for another reason than idleness, by reason: shard_moved, or a failed ' +
      'command whose state in memory may not be the stored one (fenced, conflict, unstorable, database_unavailable, error)',
    labelNames: ['kind', 'reason'],
    registers: [metricsRegistry],
  });

  private constructor() {
    sampledGauge('actors_resident', 'Actors in memory on this node', () => this.host?.residentCount ?? 0);
    sampledGauge(
      'actors_mailbox_depth',
      'Messages queued or running across resident actors',
      () => this.host?.mailboxDepth() ?? 0,
    );
    sampledGauge(
      'actors_cluster_members',
      'Live members of the cluster as this node sees them',
      () => this.members?.() ?? 0,
    );
  }

  /** The one set of this process. */
  static readonly get = processWide(() => new ActorMetrics());

  bindHost(host: HostGauges): void {
    this.host = host;
  }

  bindMembers(count: () => number): void {
    this.members = count;
  }
}

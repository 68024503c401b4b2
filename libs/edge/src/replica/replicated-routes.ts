import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EdgeMetrics } from '../edge.metrics';
import type { EdgeRoute } from '../edge-route';
import { EdgeReplica, ReplicaChange } from './edge-replica';
import { ReplicaEntry, hostnameOfKey, parseReplicaEntry, routeOf } from './replica-entry';
import { EDGE_REPLICA } from './replica.tokens';

/** How long start-up waits for the replica's current values before the edge serves what it has. */
const READY_WAIT_MS = 25_000;

/**
 * The edge's copy of every live domain and its sealed certificate, fed by a watch on the replica:
 * the request path reads this map and nothing else. It outlives PostgreSQL and NATS outages (the
 * watch resumes from its last revision when NATS returns); only changes made meanwhile wait.
 */
@Injectable()
export class ReplicatedRoutes implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReplicatedRoutes.name);
  private readonly metrics = EdgeMetrics.get();
  private readonly entries = new Map<string, ReplicaEntry>();
  private readonly listeners = new Set<(hostname: string) => void>();
  private stop?: () => void;
  private ready!: Promise<void>;

  constructor(@Inject(EDGE_REPLICA) private readonly replica: EdgeReplica) {}

  async onModuleInit(): Promise<void> {
    const started = Date.now();
    this.ready = new Promise<void>((resolve) => {
      this.stop = this.replica.watch({ onChange: (c) => this.apply(c), onReady: resolve });
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      this.ready.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_WAIT_MS).unref())),
    ]);
    // Not left pending for 25 s after a quick start (a test app closed meanwhile would keep it).
    clearTimeout(timer);
    const took = Date.now() - started;
    if (waited) this.logger.log(`Edge replica read: ${this.entries.size} hostnames in ${took} ms`);
    else this.logger.warn(`Edge replica not fully read after ${took} ms; serving the ${this.entries.size} read so far`);
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  /** Resolves once the values present at start are in (tests). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get size(): number {
    return this.entries.size;
  }

  route(hostname: string): EdgeRoute | undefined {
    return routeOf((name) => this.entries.get(name), hostname);
  }

  /** The entry of a connected hostname (a wildcard's is under `*.<base>`). */
  entry(hostname: string): ReplicaEntry | undefined {
    return this.entries.get(hostname);
  }

  /** Told of every hostname whose entry changed or left. */
  onChange(listener: (hostname: string) => void): void {
    this.listeners.add(listener);
  }

  private apply(change: ReplicaChange): void {
    const hostname = hostnameOfKey(change.key);
    if (hostname === undefined) return;
    if (change.value === undefined) this.entries.delete(hostname);
    else {
      const entry = parseReplicaEntry(change.value);
      if (!entry) return void this.logger.warn({ key: change.key }, 'Ignored a malformed edge replica entry');
      this.entries.set(hostname, entry);
    }
    this.metrics.replicaEntries.set(this.entries.size);
    this.metrics.replicaChanges.inc();
    this.listeners.forEach((listener) => listener(hostname));
  }
}

import { ActorNode } from '@app/actors';
import { BackgroundLoop } from '@app/background';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Bus } from '@app/bus';
import { DnsLookupError, DnsProber, OriginPreflight, ServedCertificate, ServedCertificateProbe } from '@app/dns';
import { DomainError, EdgeSettings, edgeSettingsOf, publishEdgeInvalidation, DOMAIN_KIND } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DomainCommand } from '../model/domain.protocol';
import { delegationToCheck } from '../model/domain.decider';
import { LEGACY_RENEW_DAYS, probeChangesNothing, servedReadDue, servedReadJudged } from '../model/domain-certificate';
import { MonitorMetrics } from './monitor.metrics';
import { DueDomain, claimDueDomains, releaseDomains, restartPendingBackoff } from '../store/monitor.queries';
import { monitorLagSeconds } from '../store/monitor-lag.queries';
import { firstProbeSeconds } from '../store/pending-backoff';

/** Origins shared by many domains are checked once a minute, not once per domain. */
const ORIGIN_CACHE_MS = 60_000;
const TICK_MS = 1_000;
/**
 * The longest an idle monitor sleeps. It wakes sooner for the next domain due in its shards (read by
 * each claim), a new domain here (its first probe) and shards taken on: this only bounds what no
 * wake-up announced (domains a stopping node gave back after its shards moved here).
 */
const IDLE_MAX_MS = 15_000;
/** A due domain another claim holds (shards moving): look again soon, not in a tight loop. */
const IDLE_MIN_MS = 250;
/** Most rows one claim asks for: bounds the claim's transaction and the rows held in memory. */
const MAX_CLAIM = 1_024;
/**
 * With a backlog, claimed domains wait in a queue of up to this many times `monitorConcurrency`,
 * and the next claim starts once fewer than half of that wait. A claim's cost is mostly fixed
 * (planning with the shard list, the round trips, the transaction), so larger and earlier claims
 * kept the probes fed: 17,302-17,334 -> 19,916-20,511 probes/s in `domains.monitor` against the
 * earlier queue (twice the concurrency, refilled once fewer than one set waited; BENCHMARKS.md). What
 * a node that dies held claimed and unprobed waits for its next slot; only a backlog fills the queue.
 */
const QUEUE_DEPTH = 4;

/**
 * Probes the domains of the shards this node owns, each once per interval at its own phase, at
 * most `monitorConcurrency` at a time; observations go to the domain's actor on this node.
 *
 * While more is due than fits, the claim loop runs ahead of the probes: up to QUEUE_DEPTH times
 * `monitorConcurrency` claimed domains wait in a queue, so a finishing probe starts the next one at once instead of
 * waiting for a claim's round trip to the database (claims run in the background, in large
 * batches). With nothing due, it sleeps until the next domain comes due (at most IDLE_MAX_MS).
 */
@Injectable()
export class DomainMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DomainMonitor.name);
  private readonly metrics = MonitorMetrics.get();
  private readonly origins = new Map<string, { blocked: boolean; at: number }>();
  private readonly claims = new BackgroundLoop({
    everyMs: TICK_MS,
    run: () => this.claimAhead(),
    logger: this.logger,
    failure: 'Monitor pass failed',
  });
  private inFlight = 0;
  /** Claimed, not yet started (`head` is the next one): a queue that never shifts. */
  private queue: DueDomain[] = [];
  private head = 0;
  /** The last claim came back full: more is due than fits, so refill as probes finish. */
  private backlog = false;
  private stopped = false;

  constructor(
    private readonly node: ActorNode,
    private readonly db: MikroSqlExecutor,
    private readonly prober: DnsProber,
    private readonly preflight: OriginPreflight,
    private readonly served: ServedCertificateProbe,
    private readonly bus: Bus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.edge = edgeSettingsOf(config);
  }

  private readonly edge: EdgeSettings;

  onApplicationBootstrap(): void {
    this.metrics.bind(() => ({ inFlight: this.inFlight, queued: this.queued }));
    this.metrics.bindLag(this.config.monitorIntervalSeconds, () => monitorLagSeconds(this.db));
    this.node.onShardAcquired(() => this.claims.wakeWithin(0));
    this.claims.start();
  }

  /** A domain comes due within `ms` (a new domain's first probe). */
  dueWithin(ms: number): void {
    this.claims.wakeWithin(ms);
  }

  /**
   * A check of a domain not serving HTTPS yet (`checkRestartsBackoff`): its pending back-off starts
   * again, the next probe 10 s from now, and the monitor wakes for it (it may be asleep until later).
   * A failure is logged, not thrown: the check itself stands, the domain keeps its schedule.
   */
  async restartBackoff(id: string): Promise<void> {
    const inSeconds = firstProbeSeconds(this.config.monitorIntervalSeconds);
    try {
      await restartPendingBackoff(this.db, id, inSeconds);
      this.dueWithin(inSeconds * 1000);
    } catch (err) {
      this.logger.warn({ err, domainId: id }, 'Restarting the pending back-off failed');
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    // A claim in progress ends after its query; what it claimed is then released with the rest.
    await this.claims.stop();
    // Claimed but never started: due again now, for whichever node owns them next.
    const left = this.queue.slice(this.head).map((d) => d.id);
    this.queue = [];
    this.head = 0;
    await releaseDomains(this.db, left).catch((err: unknown) =>
      this.logger.warn({ err }, 'Releasing claimed domains failed; they are probed next interval'),
    );
  }

  private get queued(): number {
    return this.queue.length - this.head;
  }

  /** Claimed domains waiting at or below which a backlog's next claim starts: half the queue. */
  private get refillBelow(): number {
    return (QUEUE_DEPTH / 2) * this.config.monitorConcurrency;
  }

  /**
   * Claims what is due and starts probing it; keeps claiming ahead while full batches come back.
   * Resolves with the wait before the next claim when it knows one (nothing more due until then).
   */
  private async claimAhead(): Promise<number | undefined> {
    const cap = this.config.monitorConcurrency;
    for (;;) {
      // Room for a full set of probes in flight plus QUEUE_DEPTH sets claimed and waiting.
      const room = Math.min(MAX_CLAIM, (QUEUE_DEPTH + 1) * cap - this.inFlight - this.queued);
      const shards = this.node.shards.ownedShards();
      if (room <= 0 || !shards.length || this.stopped) return undefined;
      const claimStarted = performance.now();
      const { due, nextDueInMs } = await claimDueDomains(this.db, shards, this.config.monitorIntervalSeconds, room);
      this.metrics.claimSeconds.observe((performance.now() - claimStarted) / 1000);
      this.metrics.claimedDomains.inc(due.length);
      for (const domain of due) {
        if (domain.stale) this.metrics.probes.inc({ outcome: 'skipped_stale' });
        else this.queue.push(domain);
      }
      this.pump();
      this.backlog = due.length === room;
      if (!this.backlog) return Math.min(IDLE_MAX_MS, Math.max(IDLE_MIN_MS, nextDueInMs ?? IDLE_MAX_MS));
      // Claim again only once half the queue is gone: batches stay large, claims stay rare.
      if (this.queued > this.refillBelow) return undefined;
    }
  }

  /** Starts queued probes up to the cap. */
  private pump(): void {
    const cap = this.config.monitorConcurrency;
    while (this.inFlight < cap && this.head < this.queue.length) {
      const domain = this.queue[this.head];
      this.queue[this.head++] = undefined as unknown as DueDomain;
      this.start(domain);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
  }

  private start(domain: DueDomain): void {
    this.inFlight++;
    const started = performance.now();
    this.probe(domain)
      .then((outcome) => this.metrics.probes.inc({ outcome }))
      .catch((err: unknown) => {
        this.metrics.probes.inc({ outcome: 'error' });
        this.logger.warn({ err, domainId: domain.id }, 'Probe failed');
      })
      .finally(() => {
        this.metrics.probeSeconds.observe((performance.now() - started) / 1000);
        this.metrics.probeRate.mark();
        this.inFlight--;
        if (this.stopped) return;
        this.pump();
        // A claim in progress refills the queue itself; otherwise claim ahead now, not at the next tick.
        if (this.backlog && this.queued <= this.refillBelow) this.claims.runIfIdle();
      });
  }

  private async probe(domain: DueDomain): Promise<string> {
    // A domain whose hostname moved to another workspace is final: nothing to probe.
    if (domain.machine.statusReason === 'moved_to_another_owner') return 'moved';
    const originBlocked = await this.originBlocked(domain.originUrl);
    let command: DomainCommand;
    let outcome: string;
    // A wrong certificate served while we hold a good one means an edge cache missed an update.
    let edgeStale = false;
    if (originBlocked) {
      command = { type: 'observe', dns: 'not_resolving', originBlocked: true };
      outcome = 'origin_blocked';
    } else {
      try {
        const probe = await this.prober.probe(domain.hostname);
        const served =
          probe.dns === 'correct' && this.servedReadDue(domain) ? await this.readServed(domain) : undefined;
        edgeStale = served !== undefined && served !== 'valid';
        const { problem } = probe;
        const delegated = probe.dns !== 'correct' && (await this.delegated(domain));
        const now = new Date();
        // A read the new certificate asked for is written (it ends servedCheckPending) even when nothing else changed.
        const pendingRead = domain.servedCheckPending === true && servedReadJudged(served);
        if (
          !delegated &&
          !pendingRead &&
          probeChangesNothing(domain.machine, probe.dns, served, now, LEGACY_RENEW_DAYS, problem)
        ) {
          if (edgeStale) publishEdgeInvalidation(this.bus, domain.hostname);
          return probe.dns;
        }
        command = { type: 'observe', dns: probe.dns, originBlocked: false, served, problem };
        if (delegated) command.delegated = true;
        outcome = probe.dns;
      } catch (error) {
        // A resolver outage says nothing about the customer's DNS: record it, change nothing.
        if (error instanceof DnsLookupError) return 'lookup_failed';
        throw error;
      }
    }
    const response = await this.node.host.dispatch(domain.shard, {
      kind: DOMAIN_KIND,
      id: domain.id,
      command,
      commandId: randomUUID(),
      attempt: 1,
    });
    // A changed status can change what the edge does with the name: every edge re-reads it.
    const changed = 'ok' in response && response.ok && !isUnchanged(response.reply);
    if (changed || edgeStale) {
      publishEdgeInvalidation(this.bus, domain.hostname);
    }
    return outcome;
  }

  /** Whether the certificate may come before DNS: `_acme-challenge` delegated while no valid one is held. */
  private async delegated(domain: DueDomain): Promise<boolean> {
    const env = { edge: this.edge, now: new Date(), renewDays: LEGACY_RENEW_DAYS };
    const delegation = delegationToCheck(domain, env);
    return delegation ? this.prober.delegated(delegation) : false;
  }

  private servedReadDue(domain: DueDomain): boolean {
    const { monitorIntervalSeconds, servedCheckIntervalSeconds } = this.config;
    return servedReadDue(
      { ...domain, probePhase: Number(domain.probePhase) },
      Date.now(),
      monitorIntervalSeconds,
      servedCheckIntervalSeconds,
    );
  }

  private async readServed(domain: DueDomain): Promise<ServedCertificate['outcome']> {
    const { outcome } = await this.served.check(domain.hostname);
    this.metrics.servedChecks.inc({ outcome });
    return outcome;
  }

  private async originBlocked(originUrl: string): Promise<boolean> {
    const cached = this.origins.get(originUrl);
    if (cached && Date.now() - cached.at < ORIGIN_CACHE_MS) return cached.blocked;
    const blocked = await this.preflight.check(originUrl).then(
      () => false,
      (error: unknown) => error instanceof DomainError && error.details?.reason === 'ssrf_blocked',
    );
    if (this.origins.size > 10_000) this.origins.clear();
    this.origins.set(originUrl, { blocked, at: Date.now() });
    return blocked;
  }
}

const isUnchanged = (reply: unknown): boolean =>
  typeof reply === 'object' && reply !== null && 'unchanged' in reply && reply.unchanged === true;

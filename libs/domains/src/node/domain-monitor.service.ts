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
import {
  LEGACY_RENEW_DAYS,
  certificateValidUntil,
  probeChangesNothing,
  servedReadDue,
  servedReadJudged,
} from '../model/domain-certificate';
import { MonitorMetrics } from './monitor.metrics';
import { saveWatermarks, shardDomains, shardWatermarks } from '../store/monitor.queries';
import { ProbeSchedule, ScheduleInput, ScheduledDomain } from '../model/probe-schedule';
import { DueDomain, ProbeView, dueDomainOf } from '../model/probe-view';
import type { ScheduleChange } from '../store/domain.store';
import { monitorLagSeconds } from '../store/monitor-lag.queries';
import { pendingProbeWaits } from '../store/pending-backoff';

/** Origins shared by many domains are checked once a minute, not once per domain. */
const ORIGIN_CACHE_MS = 60_000;
const TICK_MS = 1_000;
/**
 * The longest an idle monitor sleeps. It wakes sooner for the next domain due (the schedule is in
 * memory), a new domain here (its first probe), a check, and shards taken on.
 */
const IDLE_MAX_MS = 15_000;
const IDLE_MIN_MS = 10;
/**
 * How often each shard's watermark is written (only those that moved), at most: a quarter of the
 * interval when shorter. The probes made since the last write are what a new owner repeats.
 */
const WATERMARK_SAVE_MS = 5_000;
/** Most due domains taken at once. */
const MAX_TAKE = 1_024;
/** Shards whose domains one statement loads when this node takes shards on. */
const LOAD_CHUNK = 256;
/**
 * With a backlog, taken domains wait in a queue of up to this many times `monitorConcurrency`, and
 * the next take starts once fewer than half of that wait: a finished probe starts the next from
 * the queue, and a pass of the loop takes hundreds at a time rather than one per probe.
 */
const QUEUE_DEPTH = 4;

type Entry = ScheduledDomain<ProbeView>;

/**
 * Probes the domains of the shards this node owns, each once per interval at its own phase (and on
 * the pending back-off while new), at most `monitorConcurrency` at a time; observations go to the
 * domain's actor on this node.
 *
 * The schedule is in memory (`ProbeSchedule`): loaded per shard when the node takes it on, from the
 * shard's watermark in `shard_leases`, and told of domains created, written, deleted and checked
 * here. No row is written per probe (the watermarks that moved are written every WATERMARK_SAVE_MS)
 * and none is read: each entry keeps what its probe needs (`ProbeView`). With a backlog, taken
 * domains wait in a queue so that a finished probe starts the next at once.
 */
@Injectable()
export class DomainMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DomainMonitor.name);
  private readonly metrics = MonitorMetrics.get();
  private readonly origins = new Map<string, { blocked: boolean; at: number }>();
  private readonly schedule: ProbeSchedule<ProbeView>;
  /** One copy of each workspace id and origin the views hold (most domains share them). */
  private readonly interned = new Map<string, string>();
  private readonly loop = new BackgroundLoop({
    everyMs: TICK_MS,
    run: () => this.takeAhead(),
    logger: this.logger,
    failure: 'Monitor pass failed',
  });
  private readonly saver: BackgroundLoop;
  /** The shards whose domains are in the schedule, with the watermark last written (null: none). */
  private readonly loaded = new Map<number, number | null>();
  /** `ownedShards()` as last loaded (the same array until ownership changes). */
  private loadedFor?: readonly number[];
  private inFlight = 0;
  /** Taken, not yet started (`head` is the next one): a queue that never shifts. */
  private queue: Entry[] = [];
  private head = 0;
  /** The last take came back full: more is due than fits, so refill as probes finish. */
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
    const intervalMs = config.monitorIntervalSeconds * 1000;
    this.schedule = new ProbeSchedule<ProbeView>({
      intervalMs,
      waitsMs: pendingProbeWaits(config.monitorIntervalSeconds).map((s) => s * 1000),
      // Due for more than an interval and a half minute (its node was down): to its next slot.
      staleAfterMs: intervalMs + 30_000,
    });
    this.saver = new BackgroundLoop({
      everyMs: Math.min(WATERMARK_SAVE_MS, intervalMs / 4),
      run: async () => {
        await this.saveWatermarks();
        return undefined;
      },
      logger: this.logger,
      failure: 'Saving the monitor watermarks failed',
    });
  }

  private readonly edge: EdgeSettings;

  onApplicationBootstrap(): void {
    this.metrics.bind(() => ({ inFlight: this.inFlight, queued: this.queued, scheduled: this.schedule.size }));
    this.metrics.bindLag(this.config.monitorIntervalSeconds, () => monitorLagSeconds(this.db));
    this.node.onShardAcquired(() => this.loop.wakeWithin(0));
    this.loop.start();
    this.saver.start();
  }

  /** A group commit on this node created, wrote or removed domains (ScheduleChange). */
  scheduleChanged({ created, written, removed }: ScheduleChange): void {
    const owned = this.node.shards.ownedShards();
    const now = Date.now();
    for (const domain of created) if (owned.includes(domain.shard)) this.schedule.add(this.internView(domain), now);
    for (const { id, view } of written) this.schedule.setView(id, this.intern(view));
    for (const id of removed) this.schedule.remove(id);
    if (created.length) this.wakeForNext();
  }

  private intern(view: ProbeView): ProbeView {
    view.workspaceId = this.internString(view.workspaceId);
    view.originUrl = this.internString(view.originUrl);
    return view;
  }

  private internView(domain: ScheduleInput<ProbeView>): ScheduleInput<ProbeView> {
    if (domain.view) this.intern(domain.view);
    return domain;
  }

  private internString(value: string): string {
    const known = this.interned.get(value);
    if (known !== undefined) return known;
    // Bounded: past 100,000 distinct values (origins are mostly shared) new ones are kept as they come.
    if (this.interned.size < 100_000) this.interned.set(value, value);
    return value;
  }

  /**
   * A check of a domain not serving HTTPS yet (`checkRestartsBackoff`): its pending back-off starts
   * again, the next probe 10 s from now. In memory only: after a shard move the domain is back on
   * its slot (its creation's back-off is derived again from `created_at`).
   */
  restartBackoff(id: string): Promise<void> {
    this.schedule.restartBackoff(id, Date.now());
    this.wakeForNext();
    return Promise.resolve();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    await this.saver.stop();
    // Taken but never started: they count at their due time in the watermark, probed by the next owner.
    this.queue = [];
    this.head = 0;
    await this.saveWatermarks().catch((err: unknown) =>
      this.logger.warn({ err }, 'Saving the monitor watermarks failed; the next owner repeats a few seconds'),
    );
  }

  private wakeForNext(): void {
    const next = this.schedule.nextDueAt();
    if (next !== undefined) this.loop.wakeWithin(Math.max(0, next - Date.now()));
  }

  private get queued(): number {
    return this.queue.length - this.head;
  }

  /** Taken domains waiting at or below which a backlog's next take starts: half the queue. */
  private get refillBelow(): number {
    return (QUEUE_DEPTH / 2) * this.config.monitorConcurrency;
  }

  /**
   * Takes what is due, queues it and starts probing it; keeps taking ahead while full batches come
   * back. Resolves with the wait until the next domain comes due.
   */
  private async takeAhead(): Promise<number | undefined> {
    await this.loadOwnedShards();
    const cap = this.config.monitorConcurrency;
    for (;;) {
      // Room for a full set of probes in flight plus QUEUE_DEPTH sets taken and waiting.
      const room = Math.min(MAX_TAKE, (QUEUE_DEPTH + 1) * cap - this.inFlight - this.queued);
      if (room <= 0 || this.stopped) return undefined;
      const { due, skipped } = this.schedule.take(Date.now(), room);
      if (skipped) this.metrics.probes.inc({ outcome: 'skipped_stale' }, skipped);
      if (due.length) this.enqueue(due);
      this.backlog = due.length === room;
      if (!this.backlog) {
        const next = this.schedule.nextDueAt();
        return next === undefined ? IDLE_MAX_MS : Math.min(IDLE_MAX_MS, Math.max(IDLE_MIN_MS, next - Date.now()));
      }
      // Take again only once half the queue is gone: batches stay large.
      if (this.queued > this.refillBelow) return undefined;
    }
  }

  /** Queues the taken domains and starts what the cap allows. */
  private enqueue(due: Entry[]): void {
    for (const entry of due) this.queue.push(entry);
    this.metrics.claimedDomains.inc(due.length);
    this.pump();
  }

  /**
   * Loads the domains of shards taken on (from their watermarks) and forgets those of shards given
   * up, whenever ownership changed since the last pass.
   */
  private async loadOwnedShards(): Promise<void> {
    const owned = this.node.shards.ownedShards();
    if (owned === this.loadedFor) return;
    const ownedSet = new Set(owned);
    if ([...this.loaded.keys()].some((shard) => !ownedSet.has(shard))) {
      this.schedule.keepShards((shard) => ownedSet.has(shard));
      for (const shard of this.loaded.keys()) if (!ownedSet.has(shard)) this.loaded.delete(shard);
    }
    const toLoad = owned.filter((shard) => !this.loaded.has(shard));
    for (let i = 0; i < toLoad.length; i += LOAD_CHUNK) {
      const chunk = toLoad.slice(i, i + LOAD_CHUNK);
      const [domains, marks] = await Promise.all([shardDomains(this.db, chunk), shardWatermarks(this.db, chunk)]);
      const byShard = new Map<number, ScheduleInput<ProbeView>[]>();
      for (const d of domains) {
        const list = byShard.get(d.shard) ?? [];
        const view: ProbeView = {
          hostname: d.hostname,
          workspaceId: d.workspaceId,
          originUrl: d.originUrl,
          machineJson: d.machineJson,
          servedCheckPending: d.servedCheckPending,
          quietUntil: 0,
        };
        list.push({
          id: d.id,
          shard: d.shard,
          phase: d.phase,
          backoffFrom: d.verified ? undefined : d.createdAt,
          view: this.intern(view),
        });
        byShard.set(d.shard, list);
      }
      const now = Date.now();
      let skipped = 0;
      for (const shard of chunk) {
        skipped += this.schedule.load(byShard.get(shard) ?? [], marks.get(shard), now);
        this.loaded.set(shard, marks.get(shard) ?? null);
      }
      if (skipped) this.metrics.probes.inc({ outcome: 'skipped_stale' }, skipped);
    }
    this.loadedFor = owned;
    // Shards given up while loading: forgotten at the next pass (ownedShards() changed again).
  }

  /** Writes the watermarks of the loaded shards that moved since they were last written. */
  private async saveWatermarks(): Promise<void> {
    const shards = [...this.loaded.keys()];
    const marks = this.schedule.watermarks(shards);
    const changed: number[] = [];
    const at: (number | null)[] = [];
    shards.forEach((shard, i) => {
      const mark = marks[i] ?? null;
      if (mark !== this.loaded.get(shard)) {
        changed.push(shard);
        at.push(mark);
      }
    });
    if (!changed.length) return;
    await saveWatermarks(this.db, this.node.shards.nodeId, changed, at);
    changed.forEach((shard, i) => {
      if (this.loaded.has(shard)) this.loaded.set(shard, at[i]);
    });
  }

  /** Starts queued probes up to the cap. */
  private pump(): void {
    const cap = this.config.monitorConcurrency;
    while (this.inFlight < cap && this.head < this.queue.length) {
      const next = this.queue[this.head];
      this.queue[this.head++] = undefined as unknown as Entry;
      this.start(next);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
  }

  private start(entry: Entry): void {
    // The view as of now: a write since the domain was taken (a certificate issued) is seen.
    const domain = dueDomainOf(entry, entry.view);
    this.inFlight++;
    const started = performance.now();
    this.probe(domain, entry.view)
      .then((outcome) => {
        this.metrics.probes.inc({ outcome });
        if (outcome === 'moved') this.schedule.remove(entry.id);
      })
      .catch((err: unknown) => {
        this.metrics.probes.inc({ outcome: 'error' });
        this.logger.warn({ err, domainId: domain.id }, 'Probe failed');
      })
      .finally(() => {
        this.schedule.done(entry, Date.now(), domain.machine.status === 'verified');
        this.metrics.probeSeconds.observe((performance.now() - started) / 1000);
        this.metrics.probeRate.mark();
        this.inFlight--;
        if (this.stopped) return;
        this.pump();
        // A pass in progress refills the queue itself; otherwise take ahead now, not at the next tick.
        if (this.backlog && this.queued <= this.refillBelow) this.loop.runIfIdle();
        else if (!this.backlog) this.wakeForNext();
      });
  }

  private async probe(domain: DueDomain, view: ProbeView): Promise<string> {
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
        const seenRight = probe.dns === 'correct' && !edgeStale && !pendingRead;
        if (seenRight && now.getTime() < view.quietUntil) return probe.dns;
        if (
          !delegated &&
          !pendingRead &&
          probeChangesNothing(domain.machine, probe.dns, served, now, LEGACY_RENEW_DAYS, problem)
        ) {
          // The same probe changes nothing until the certificate's clock moves: the machine need not run again.
          if (seenRight) view.quietUntil = certificateValidUntil(domain.machine, LEGACY_RENEW_DAYS);
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
    return servedReadDue(domain, Date.now(), monitorIntervalSeconds, servedCheckIntervalSeconds);
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

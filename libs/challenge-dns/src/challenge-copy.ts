import { APP_CONFIG, AppConfig } from '@app/config';
import { Bus } from '@app/bus';
import { DNS_CHALLENGE_CHANGED_SUBJECT } from '@app/kernel';
import { MikroSqlExecutor, type SqlExecutor } from '@app/persistence';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CHALLENGE_DNS_OPTIONS, ChallengeDnsOptions } from './challenge-dns.options';
import { ChallengeDnsMetrics } from './challenge-dns.metrics';
import { liveChallenges } from './live-challenges.queries';
import type { LiveValue } from './model/zone-answer';

/**
 * This process's copy of the live DNS-01 challenges (`acme_dns_challenges`), so a query is
 * answered from memory. Reloaded on every change message, every few seconds, and (throttled) when a
 * TXT query asks for a name it lacks, so a value published a moment ago is found even if its
 * message is late. A failed reload keeps the last copy.
 */
@Injectable()
export class ChallengeCopy implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ChallengeCopy.name);
  private readonly metrics = ChallengeDnsMetrics.get();
  private byName = new Map<string, LiveValue[]>();
  private inFlight?: Promise<void>;
  private queued?: Promise<void>;
  private missReload?: Promise<void>;
  private lastMissReloadAt = -Infinity;
  private failing = false;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CHALLENGE_DNS_OPTIONS) private readonly options: ChallengeDnsOptions,
    @Inject(MikroSqlExecutor) private readonly db: SqlExecutor,
    private readonly bus: Bus,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.challengeZone) return;
    this.unsubscribe = this.bus.subscribe(DNS_CHALLENGE_CHANGED_SUBJECT, () => void this.reload());
    this.timer = setInterval(() => void this.reload(), this.options.reloadEveryMs);
    this.timer.unref();
    await this.reload();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    clearInterval(this.timer);
  }

  /** The values at a canonical name, as last loaded (the answer drops expired ones). */
  values(name: string): readonly LiveValue[] {
    return this.byName.get(name) ?? [];
  }

  hasLive(name: string, now: number): boolean {
    return this.values(name).some((entry) => entry.expiresAt > now);
  }

  /** Resolves after a reload that started after this call (one in flight at a time; callers share the next). */
  reload(): Promise<void> {
    if (!this.inFlight) return (this.inFlight = this.load().finally(() => (this.inFlight = undefined)));
    this.queued ??= this.inFlight.then(() => {
      this.queued = undefined;
      return this.reload();
    });
    return this.queued;
  }

  /**
   * For a TXT query at a name the copy lacks: a reload starting after now, no sooner than
   * `missReloadMs` after the last one a miss caused; waits for it at most `missWaitMs`.
   */
  async reloadForMiss(): Promise<void> {
    if (!this.missReload) {
      const delay = Math.max(0, this.lastMissReloadAt + this.options.missReloadMs - Date.now());
      this.missReload = sleep(delay).then(() => {
        this.missReload = undefined;
        this.lastMissReloadAt = Date.now();
        return this.reload();
      });
    }
    await Promise.race([this.missReload, sleep(this.options.missWaitMs)]);
  }

  private async load(): Promise<void> {
    try {
      const byName = await liveChallenges(this.db);
      this.byName = byName;
      this.metrics.reloads.inc({ result: 'ok' });
      this.metrics.liveValues.set([...byName.values()].reduce((sum, values) => sum + values.length, 0));
      if (this.failing) this.logger.log('Reloaded the DNS-01 challenges again');
      this.failing = false;
    } catch (error) {
      this.metrics.reloads.inc({ result: 'failed' });
      if (!this.failing)
        this.logger.warn({ error }, 'Could not reload the DNS-01 challenges; answering from the last copy');
      this.failing = true;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

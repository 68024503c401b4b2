import { Logger } from '@nestjs/common';

export interface BackgroundLoopOptions {
  /** The wait after a run before the next one. */
  everyMs: number;
  /** The wait after a failed run (default everyMs). */
  retryMs?: number;
  /**
   * One pass. Resolving `true` means it left work behind: the next pass starts at once; a number is
   * the wait before the next pass instead of everyMs (a pass that knows when work next comes due).
   */
  run: () => Promise<boolean | number | void>;
  logger: Logger;
  /** Logged as a warning with the error when a run throws; the loop goes on. */
  failure: string;
}

/**
 * A background job run over and over: never two runs at once, `everyMs` after each run ends,
 * and right away when woken (new work announced by a bus message or a commit). `stop()` waits for the run
 * in progress, so a service stops it in its shutdown hook before releasing what the run holds.
 * Timers are unref'd: a loop never keeps a process alive on its own.
 */
export class BackgroundLoop {
  private timer?: NodeJS.Timeout;
  /** When the scheduled run fires (epoch ms), while one is scheduled. */
  private timerAt = Infinity;
  /** Asked for (wakeWithin) while a run was in progress: its successor comes no later. */
  private dueBy = Infinity;
  private current?: Promise<void>;
  /** Work was announced while a run was in progress: run once more right after it. */
  private again = false;
  private stopped = false;

  constructor(private readonly options: BackgroundLoopOptions) {}

  /** The first run comes after `firstInMs` (default everyMs), unless woken sooner. */
  start(firstInMs = this.options.everyMs): void {
    this.stopped = false;
    this.schedule(firstInMs);
  }

  /** No more runs; resolves once the run in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  /**
   * Runs at the next turn of the event loop (wake-ups until then join that run), or once more right
   * after the run in progress (it may have looked before the new work arrived). Resolves when that
   * run is over.
   */
  wake(): Promise<void> {
    if (this.stopped) return this.current ?? Promise.resolve();
    if (this.current) {
      this.again = true;
      return this.current;
    }
    return this.begin(true);
  }

  /**
   * Work comes due within `ms`: moves the next run earlier if it is scheduled later (a run in
   * progress schedules its successor no later than that).
   */
  wakeWithin(ms: number): void {
    if (this.stopped) return;
    const at = Date.now() + ms;
    if (this.current) this.dueBy = Math.min(this.dueBy, at);
    else if (at < this.timerAt) this.schedule(ms);
  }

  /** Runs now unless a run is in progress (whose own pass covers what asked). */
  runIfIdle(): void {
    if (!this.stopped && !this.current) void this.begin(false);
  }

  private begin(nextTurn: boolean): Promise<void> {
    clearTimeout(this.timer);
    // `current` is set before the run starts, so wake-ups until then, or from inside it, are coalesced.
    const turn = nextTurn ? new Promise<void>((resolve) => setTimeout(resolve, 0)) : Promise.resolve();
    const run = turn
      .then(() => this.runUntilSettled())
      .then((nextInMs) => {
        this.current = undefined;
        const dueInMs = this.dueBy - Date.now();
        this.dueBy = Infinity;
        this.schedule(Math.max(0, Math.min(nextInMs, dueInMs)));
      });
    this.current = run;
    return run;
  }

  /** Runs until no more work is left or announced; resolves with the wait before the next run. */
  private async runUntilSettled(): Promise<number> {
    let next = this.options.everyMs;
    this.again = true;
    while (this.again && !this.stopped) {
      this.again = false;
      try {
        const outcome = await this.options.run();
        if (outcome === true) this.again = true;
        next = typeof outcome === 'number' ? Math.max(0, outcome) : this.options.everyMs;
      } catch (err) {
        this.options.logger.warn({ err }, this.options.failure);
        return this.options.retryMs ?? this.options.everyMs;
      }
    }
    return next;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timerAt = Infinity;
    if (this.stopped) return;
    this.timerAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      if (!this.current) void this.begin(false);
    }, ms);
    this.timer.unref();
  }
}

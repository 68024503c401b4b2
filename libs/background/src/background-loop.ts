import { Logger } from '@nestjs/common';

export interface BackgroundLoopOptions {
  /** The wait after a run before the next one. */
  everyMs: number;
  /** The wait after a failed run (default everyMs). */
  retryMs?: number;
  /** One pass. Resolving `true` means it left work behind: the next pass starts at once. */
  run: () => Promise<boolean | void>;
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
        this.schedule(nextInMs);
      });
    this.current = run;
    return run;
  }

  /** Runs until no more work is left or announced; resolves with the wait before the next run. */
  private async runUntilSettled(): Promise<number> {
    this.again = true;
    while (this.again && !this.stopped) {
      this.again = false;
      try {
        if ((await this.options.run()) === true) this.again = true;
      } catch (err) {
        this.options.logger.warn({ err }, this.options.failure);
        return this.options.retryMs ?? this.options.everyMs;
      }
    }
    return this.options.everyMs;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      if (!this.current) void this.begin(false);
    }, ms);
    this.timer.unref();
  }
}

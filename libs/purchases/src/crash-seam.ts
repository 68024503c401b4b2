import { Logger } from '@nestjs/common';

/**
 * Test seam of the crash tests (PURCHASE_CRASH_AFTER): kills this process with SIGKILL at the named
 * point, i.e. right after a saga step was persisted (`charging`, `registering`, ...) or right after
 * an external effect returned and before its outcome was persisted (`after:charge`, ...).
 */
export class CrashSeam {
  constructor(private readonly point: string | undefined) {}

  reached(point: string): void {
    if (this.point !== point) return;
    new Logger(CrashSeam.name).warn(`PURCHASE_CRASH_AFTER=${point}: killing this process now`);
    process.kill(process.pid, 'SIGKILL');
  }
}

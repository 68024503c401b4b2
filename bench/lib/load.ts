import { performance } from 'node:perf_hooks';
import { percentile } from './stats';

export interface LoadRun {
  ok: number;
  errors: number;
  elapsedMs: number;
  /** Per successful operation, in ms. */
  latencies: number[];
  firstError?: string;
}

export interface LoadSummary {
  ok: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  firstError?: string;
}

/** Closed loop: `concurrency` workers each run `op` back to back for `durationMs`. */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  op: (worker: number) => Promise<unknown>,
): Promise<LoadRun> {
  const run: LoadRun = { ok: 0, errors: 0, elapsedMs: 0, latencies: [] };
  const started = performance.now();
  const end = started + durationMs;
  const worker = async (n: number) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        await op(n);
        run.latencies.push(performance.now() - t0);
        run.ok++;
      } catch (error) {
        run.errors++;
        run.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, n) => worker(n)));
  run.elapsedMs = performance.now() - started;
  return run;
}

/** Runs `op` once per item with `concurrency` in flight; throws on the first failure. */
export async function forEachConcurrently<T>(
  items: T[],
  concurrency: number,
  op: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await op(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Totals of several rounds of the same load. */
export function summarize(runs: LoadRun[]): LoadSummary {
  const ok = runs.reduce((a, r) => a + r.ok, 0);
  const ms = runs.reduce((a, r) => a + r.elapsedMs, 0);
  const latencies = runs.flatMap((r) => r.latencies);
  return {
    ok,
    errors: runs.reduce((a, r) => a + r.errors, 0),
    seconds: ms / 1000,
    perSecond: ms ? (ok * 1000) / ms : 0,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    firstError: runs.find((r) => r.firstError)?.firstError,
  };
}

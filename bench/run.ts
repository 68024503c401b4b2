import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteStreams, dropStaleDatabases } from './lib/cleanup';
import { NATS_URL, createBenchDatabase, uniqueSubjectPrefix } from './lib/database';
import { busyPercent, describeMachine } from './lib/machine';
import { BENCHMARKS_MD, REPO_ROOT, built } from './lib/paths';
import { render } from './lib/render';
import { loadResults, saveResult } from './lib/results';
import { formatNumber } from './lib/stats';
import { BenchResult, Benchmark, Machine, Measured } from './lib/types';
import { select } from './registry';

/**
 * `npm run bench [-- name...]`: runs the benchmarks one after another, each in a process group of
 * its own on a fresh database and NATS namespace, with a hard time limit; saves each result to
 * bench/results/<name>.json and renders BENCHMARKS.md from every result file present.
 */

let running: number | undefined;
let interrupted = false;

const killGroup = (pid?: number) => {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

// Ctrl-C: kill the running benchmark's group; its database and bucket are removed as it ends.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping without saving results`);
    if (running) killGroup(running);
    else process.exit(130);
  });
}

/** The benchmark's own process group and resources: removed whatever happens. */
async function runIsolated(bench: Benchmark): Promise<Measured> {
  const db = await createBenchDatabase();
  const prefix = uniqueSubjectPrefix();
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const output = join(dir, 'measured.json');
  const cleanup = async () => {
    await db.drop().catch((err: unknown) => console.error(`  could not drop ${db.name}: ${String(err)}`));
    await deleteStreams(prefix).catch((err: unknown) =>
      console.error(`  could not delete the streams of ${prefix}: ${String(err)}`),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  // e.g. BENCH_WORKER_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the benchmark's own process
  // (its clients), as BENCH_NODE_ARGS does the nodes it starts.
  const workerArgs = process.env.BENCH_WORKER_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, ['--expose-gc', ...workerArgs, built('bench/worker')], {
    cwd: REPO_ROOT,
    detached: true,
    // Its stdin closes if this process dies, so it never outlives the runner.
    stdio: ['pipe', 'inherit', 'inherit'],
    env: {
      ...process.env,
      BENCH_NAME: bench.name,
      BENCH_DATABASE_URL: db.url,
      BENCH_NATS_URL: NATS_URL,
      BENCH_PREFIX: prefix,
      BENCH_OUTPUT: output,
    },
  });
  running = child.pid;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, bench.timeoutMs);
  try {
    const code = await new Promise<number | string | null>((resolve) =>
      child.once('exit', (c, signal) => resolve(c ?? signal)),
    );
    // Whatever the worker left behind (nodes it started) goes with its group.
    killGroup(child.pid);
    if (timedOut) throw new Error(`No result within ${bench.timeoutMs / 1000} s; killed`);
    if (code !== 0) throw new Error(`The benchmark process ended with ${code}`);
    return JSON.parse(readFileSync(output, 'utf8')) as Measured;
  } finally {
    clearTimeout(timer);
    await cleanup();
    running = undefined;
  }
}

function print(result: BenchResult): void {
  if (result.error) return console.log(`  FAILED: ${result.error.split('\n')[0]}`);
  for (const f of result.figures ?? []) {
    const base = f.baseline ? ` vs ${formatNumber(f.baseline.value, f.unit)} ${f.baseline.label}` : '';
    const ratio = f.ratio !== undefined ? ` = ${f.ratio.toFixed(2)}x` : '';
    const met = f.met === undefined ? '' : f.met ? ' (goal met)' : ' (goal MISSED)';
    console.log(`  ${f.label}: ${formatNumber(f.value, f.unit)}${base}${ratio}${met}`);
  }
}

async function main(): Promise<void> {
  const selected = select(process.argv.slice(2));
  const machine: Machine = await describeMachine(NATS_URL);
  // What killed runs left behind (a runner killed with SIGKILL cannot clean up after itself).
  await Promise.all([dropStaleDatabases(), deleteStreams()]).catch((err: unknown) =>
    console.error(`Could not remove leftovers of earlier runs: ${String(err)}`),
  );
  console.log(`Benchmarks: ${selected.map((b) => b.name).join(', ')}`);
  let failed = 0;
  for (const bench of selected) {
    console.log(`\n${bench.name}: ${bench.title}`);
    const started = Date.now();
    const busyBefore = await busyPercent();
    if (busyBefore !== undefined && busyBefore > 10) {
      console.log(`  (the machine was ${busyBefore}% busy with other work just before: it skews the figures)`);
    }
    // Beside the busy share (which tops out at 100%), how many runnable tasks competed for the cores.
    const loadAverage = Number(loadavg()[0].toFixed(2));
    const base = {
      name: bench.name,
      area: bench.area,
      order: bench.order,
      title: bench.title,
      machine,
      busyBefore,
      loadAverage,
    };
    let result: BenchResult;
    try {
      const measured = await runIsolated(bench);
      result = { ...base, ...measured, ranAt: new Date(started).toISOString(), seconds: (Date.now() - started) / 1000 };
    } catch (error) {
      failed++;
      const message = error instanceof Error ? error.message : String(error);
      result = {
        ...base,
        ranAt: new Date(started).toISOString(),
        seconds: (Date.now() - started) / 1000,
        error: message,
      };
    }
    if (interrupted) process.exit(130);
    print(result);
    await saveResult(result);
  }
  writeFileSync(BENCHMARKS_MD, render(loadResults()));
  console.log(`\nWrote ${BENCHMARKS_MD}${failed ? `; ${failed} benchmark(s) failed` : ''}`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
});

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Test files whose assertions are timings (a failover goal) say so with a `@run-alone` docblock
 * pragma: the sequencer (test-sequencer.mjs, which holds the pragma's text) starts them after every
 * other file, and `runAlone()` in their beforeAll waits until no other e2e file of this Jest run is still running. Every e2e
 * file marks itself running (the setup file calls `markRunning`), in a directory named by the Jest
 * process its worker belongs to.
 */
/** The longest a run-alone file waits for the others (then it runs beside them, and its times say so). */
export const RUN_ALONE_MAX_WAIT_MS = 15 * 60_000;

const runDir = () => join(tmpdir(), `jest-running-${process.ppid}`);
const marker = () => join(runDir(), `${process.pid}`);
const aloneFlag = () => join(runDir(), `${process.pid}.alone`);
const LOCK = () => join(runDir(), 'alone.lock');
const POLL_MS = 250;
const TEARDOWN_GRACE_MS = 3_000;
const SETTLE_MS = 2_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** This worker runs `testPath` now (until `markDone`). */
export function markRunning(testPath: string): void {
  mkdirSync(runDir(), { recursive: true });
  writeFileSync(marker(), testPath);
}

export function markDone(): void {
  rmSync(marker(), { force: true });
  rmSync(aloneFlag(), { force: true });
  const lock = LOCK();
  if (existsSync(lock) && readFileSync(join(lock, 'pid'), 'utf8') === `${process.pid}`)
    rmSync(lock, { recursive: true });
  try {
    rmdirSync(runDir()); // the run's last file leaves no directory behind
  } catch {
    // other files still run
  }
}

/** Other e2e files running now (live workers not waiting to run alone themselves). */
export function othersRunning(): string[] {
  const dir = runDir();
  if (!existsSync(dir)) return [];
  const names = new Set(readdirSync(dir));
  for (const name of names) if (/^\d+$/.test(name) && !alive(Number(name))) rmSync(join(dir, name), { force: true }); // a worker that died
  return [...names]
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid && alive(Number(name)))
    .filter((name) => !names.has(`${name}.alone`))
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}

/** One run-alone file at a time: a directory made atomically, taken over when its holder died. */
function tryLock(): boolean {
  const lock = LOCK();
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), `${process.pid}`);
    return true;
  } catch {
    const holder = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : NaN);
    if (Number.isFinite(holder) && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

/**
 * Waits (up to `maxWaitMs`) until this file is the only e2e file running, and returns how long it
 * waited and what still ran when it gave up waiting. Released when the file ends (`markDone`).
 */
export async function runAlone(
  maxWaitMs = RUN_ALONE_MAX_WAIT_MS,
): Promise<{ waitedMs: number; stillRunning: string[] }> {
  const started = Date.now();
  mkdirSync(runDir(), { recursive: true });
  writeFileSync(aloneFlag(), '');
  while (Date.now() - started < maxWaitMs) {
    if (tryLock()) {
      rmSync(aloneFlag(), { force: true });
      // Nobody else for a settle period in a row: a file handed to a worker just now marks itself
      // only once its environment is up.
      let quietSince: number | undefined;
      for (;;) {
        const others = othersRunning();
        const now = Date.now();
        quietSince = others.length ? undefined : (quietSince ?? now);
        const settled = quietSince !== undefined && now - quietSince >= SETTLE_MS;
        if (settled || now - started >= maxWaitMs) {
          // A file is marked done before its own afterAll has stopped its processes: let that finish.
          if (now - started > SETTLE_MS + POLL_MS)
            await new Promise((resolve) => setTimeout(resolve, TEARDOWN_GRACE_MS));
          return { waitedMs: Date.now() - started, stillRunning: others };
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  rmSync(aloneFlag(), { force: true });
  return { waitedMs: Date.now() - started, stillRunning: othersRunning() };
}

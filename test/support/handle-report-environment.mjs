// Jest's node environment, plus a report of what a test file leaves running after its teardown.
//
// "A worker process has failed to exit gracefully" means a worker still held a handle (socket,
// timer, child process) when Jest ended it, and says nothing of which file left it. Here each e2e
// file's environment counts the process's active resources by type when it starts and again a
// moment after its teardown; what grew is printed with the file's name, so the leaking file names
// itself in the run's output (stderr, and test/artifacts/leaked-handles.txt). Counts by type can
// net out (a file leaves a timer while one from before it ends), so what the worker holds beyond
// what it held before its first file is reported too, when it changes: the file after which a
// worker's extra handles first appear is named even when no single file's count grew.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ProcessHooksEnvironment from './process-hooks-environment.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const SETTLE_MS = 300;
const ARTIFACTS = join(here, '..', 'artifacts');

const countByType = () => {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
};

/** What grew from `before` to `after`, as `+n Type` items. */
const growth = (before, after) =>
  [...after]
    .map(([type, n]) => [type, n - (before?.get(type) ?? 0)])
    .filter(([, n]) => n > 0)
    .map(([type, n]) => `+${n} ${type}`);

// Where each long timer (a second or more: back-offs, retries, schedules) a file's code set was set,
// so a timer left running after its teardown is reported with the code that set it, not only as
// "+1 Timeout". The file's global setTimeout is wrapped (an async hook would see every timer, but
// with an init hook Node tracks every promise too: 9% more CPU in a worker). Short timers are left
// out: there are many of them, and they end before anyone waits on them.
const LONG_TIMER_MS = 1000;

/** Wraps `global.setTimeout` of a file's context; returns what names its long timers still pending and ref'd. */
function trackLongTimers(global) {
  const timers = [];
  const setTimeoutOfFile = global.setTimeout;
  const tracked = function setTimeout(callback, ms, ...args) {
    const timer = setTimeoutOfFile(callback, ms, ...args);
    if (ms >= LONG_TIMER_MS) timers.push({ timer: new WeakRef(timer), ms, stack: stackHere() });
    return timer;
  };
  // promisify(setTimeout) and friends keep working.
  Object.defineProperties(tracked, Object.getOwnPropertyDescriptors(setTimeoutOfFile));
  global.setTimeout = tracked;
  return () =>
    timers
      .filter(({ timer }) => {
        const t = timer.deref();
        return t && !t._destroyed && t.hasRef();
      })
      .map(({ ms, stack }) => `a ${ms} ms timer set at\n${stack}`);
}

const stackHere = () => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  const stack = new Error().stack
    .split('\n')
    .slice(3)
    .filter((frame) => !/\(node:|\/jest-circus\//.test(frame))
    .join('\n');
  Error.stackTraceLimit = limit;
  return stack;
};

/** This worker's resources before its first file, and what it held beyond them when last reported. */
let workerStart;
let lastBeyondStart = '';

/** Appends a timestamped line to `file` under test/artifacts/: a help, never a failure. */
const appendArtifact = (file, line) => {
  try {
    mkdirSync(ARTIFACTS, { recursive: true });
    appendFileSync(join(ARTIFACTS, file), `${new Date().toISOString()} ${line}\n`);
  } catch {
    // nothing to do: the line is lost, the test run is not
  }
};

const report = (line) => {
  process.stderr.write(`leaked handles: ${line}\n`);
  appendArtifact('leaked-handles.txt', line);
};

// Each worker's memory when it exits, for "A worker process has failed to exit gracefully": the
// worker exits with nothing left running, and a process holding well over a gigabyte took longer
// than Jest's 500 ms to be gone. Written to test/artifacts/worker-exits.txt only.
process.once('exit', (code) => {
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  const mb = (n) => Math.round(n / 2 ** 20);
  appendArtifact(
    'worker-exits.txt',
    `worker ${process.pid} exits (code ${code}): rss ${mb(rss)} MB, heap ${mb(heapUsed)} of ${mb(heapTotal)} MB, last file ${lastFile}`,
  );
});
let lastFile = '(none)';
// A worker Jest replaced (workerIdleMemoryLimit in jest.config.js) ends by SIGTERM, without 'exit':
// this line counts the workers a run started.
appendArtifact('worker-exits.txt', `worker ${process.pid} starts`);

export default class HandleReportEnvironment extends ProcessHooksEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = relative(config.projectConfig.rootDir, context.testPath);
    this.heldLongTimers = trackLongTimers(this.global);
  }

  async setup() {
    await super.setup();
    this.before = countByType();
    workerStart ??= this.before;
  }

  async teardown() {
    lastFile = this.testPath;
    await super.teardown();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref());
    const now = countByType();
    const grown = growth(this.before, now);
    if (grown.length) {
      const timers = this.heldLongTimers();
      report(
        `${this.testPath} left running after its teardown: ${grown.join(', ')}${timers.map((t) => `\n${t}`).join('')}`,
      );
    }
    const beyondStart = growth(workerStart, now).join(', ');
    if (beyondStart && beyondStart !== lastBeyondStart)
      report(
        `worker ${process.pid} holds after ${this.testPath}, beyond what it held before its first file: ${beyondStart}`,
      );
    lastBeyondStart = beyondStart;
  }
}

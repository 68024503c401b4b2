// Jest's node environment, with what a test file started in Node's process-wide performance hooks
// stopped when the file ends, and objects a file makes from the worker's own prototypes made in the
// worker's realm (both kept a finished file's whole module graph reachable); a worker that ends
// without freeing its heap first.
//
// Jest loads each file's modules afresh but shares Node's core modules between files. prom-client's
// default metrics (libs/metrics) register a PerformanceObserver for GC and enable an event-loop delay
// monitor; neither is ever stopped, because a service process makes them once for its life. In a
// Jest worker each file makes its own, and the observer's callback holds the file's whole module
// graph: about 30 MB of heap kept per file, 1 GB and more by a worker's last file.
import perfHooks from 'node:perf_hooks';
import { TestEnvironment } from 'jest-environment-node';

/** Stops for the hooks started since the last file ended. */
const started = [];

const { PerformanceObserver } = perfHooks;
const observe = PerformanceObserver.prototype.observe;
PerformanceObserver.prototype.observe = function observeUntilFileEnds(...args) {
  started.push(() => this.disconnect());
  return observe.apply(this, args);
};
const monitorEventLoopDelay = perfHooks.monitorEventLoopDelay;
perfHooks.monitorEventLoopDelay = function monitorUntilFileEnds(...args) {
  const histogram = monitorEventLoopDelay.apply(this, args);
  started.push(() => histogram.disable());
  return histogram;
};

// A worker is gone only when the kernel has freed its memory: with four workers of about 700 MB
// ending at once on two cores the last was gone 208-217 ms after its exit listeners ran, and Jest
// force-exits (and reports) one still there 500 ms after it asked it to end. process.exit() from the
// last exit listener skips Node's own teardown of the heap before that: 127-151 ms in the same
// measurement. Every other exit listener has run by then, and a worker still holding a handle never
// gets here.
const exitNow = (code) => process.exit(code);
const keepExitNowLast = () => {
  process.removeListener('exit', exitNow);
  process.on('exit', exitNow);
};
keepExitNowLast();

export default class ProcessHooksEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // V8 caches, on a prototype, the object shape `Object.create(prototype)` makes, and that shape
    // points at the realm that made it first. esbuild bundles (playwright-core) call
    // `Object.create(Object.getPrototypeOf(process))` inside a file's realm; Jest then makes the
    // next file's `process` with that cached shape, so every file kept the one before it and the
    // worker's first file stayed for the worker's life. The worker's own Object.create makes
    // shapes of the worker's realm; its results are the same objects to the file's code.
    this.global.Object.create = Object.create;
  }

  async teardown() {
    for (const stop of started.splice(0)) stop();
    keepExitNowLast();
    await super.teardown();
  }
}

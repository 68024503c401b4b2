// Jest's node environment, with what a test file started in Node's process-wide performance hooks
// stopped when the file ends, and objects a file makes from the worker's own prototypes made in the
// worker's realm: both kept a finished file's whole module graph reachable.
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
    await super.teardown();
  }
}

// Longest files first, also on a fresh clone: Jest orders by the durations it cached in earlier runs
// and, without them (a new checkout), by file size. The multi-process specs are small files (their
// scenarios live in test/support) and were then started last: two 30 s files began at 332 s of a
// 365 s run. test/durations.json (seconds per file, from a CI run's report; README says how to
// refresh it) fills in what Jest has not timed itself. Files marked `@run-alone` go last, whatever
// their duration or an earlier failure.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';

const require = createRequire(import.meta.url);
const Sequencer = require('@jest/test-sequencer').default;
const durations = JSON.parse(readFileSync(new URL('../durations.json', import.meta.url), 'utf8'));

/** Files with this docblock pragma start after every other file (test/support/run-alone.ts). */
const RUN_ALONE = '@run-alone';
const runsAlone = (test) => readFileSync(test.path, 'utf8').slice(0, 4096).includes(RUN_ALONE);

export default class KnownDurationsSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return [...sorted.filter((t) => !runsAlone(t)), ...sorted.filter(runsAlone)];
  }

  time(test) {
    const measured = super.time(test);
    if (measured != null) return measured;
    const known = durations[relative(test.context.config.rootDir, test.path)];
    return known == null ? undefined : known * 1000;
  }
}

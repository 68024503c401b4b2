import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { checkedExchanges, removeOpenApiProcessFile, takeOpenApiViolations } from './openapi-exchanges';
import { markDone, markRunning } from './run-alone';

/** The exchanges of a test (and of the beforeAll before it), in-process or of spawned processes, are judged when it ends. */
const failOnViolations = (): void => {
  const violations = takeOpenApiViolations();
  if (violations.length) {
    throw new Error(`HTTP exchanges the OpenAPI document does not describe:\n- ${violations.join('\n- ')}`);
  }
};

// Which e2e file each worker runs, for the files that must run alone (run-alone.ts): marked as the
// file starts, before its own code (and its beforeAll) runs.
markRunning(expect.getState().testPath ?? '?');
afterEach(failOnViolations);
afterAll(() => {
  // OPENAPI_EXCHANGES_LOG=<file>: one line per test file with the number of exchanges checked.
  const log = process.env.OPENAPI_EXCHANGES_LOG;
  if (log) appendFileSync(log, `${basename(expect.getState().testPath ?? '?')}\t${checkedExchanges()}\n`);
  try {
    failOnViolations();
  } finally {
    removeOpenApiProcessFile();
    markDone();
  }
});

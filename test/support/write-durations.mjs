// Refreshes test/durations.json (the order test/support/test-sequencer.mjs starts files in on a fresh
// clone) from a Jest JSON report: `node test/support/write-durations.mjs .ci/jest-results.json`.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const report = JSON.parse(readFileSync(process.argv[2] ?? '.ci/jest-results.json', 'utf8'));
// The checkout the report was made in: the longest directory every test file is under.
const commonDirs = (a, b) => {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return a.slice(0, n);
};
const root = report.testResults
  .map((t) => t.name.split('/').slice(0, -1))
  .reduce(commonDirs)
  .join('/');
const seconds = (t) => Math.round((t.endTime - t.startTime) / 100) / 10;
const files = [...report.testResults].sort((a, b) => seconds(b) - seconds(a));
const durations = Object.fromEntries(files.map((t) => [relative(root, t.name), seconds(t)]));
writeFileSync(new URL('../durations.json', import.meta.url), `${JSON.stringify(durations, null, 1)}\n`);
console.log(`${files.length} files written to test/durations.json`);

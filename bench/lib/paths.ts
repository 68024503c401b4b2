import { resolve, sep } from 'node:path';

/** The repository root, whether this file runs from `dist/bench/lib` or from `bench/lib`. */
export const REPO_ROOT = __dirname.includes(`${sep}dist${sep}`)
  ? __dirname.slice(0, __dirname.lastIndexOf(`${sep}dist${sep}`))
  : resolve(__dirname, '../..');

/** A built script, e.g. `bench/echo-responder` or `test/fixtures/counter-node.main`. */
export const built = (path: string) => resolve(REPO_ROOT, 'dist', `${path}.js`);

export const RESULTS_DIR = resolve(REPO_ROOT, 'bench/results');
export const BENCHMARKS_MD = resolve(REPO_ROOT, 'BENCHMARKS.md');

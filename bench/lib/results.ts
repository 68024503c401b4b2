import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { RESULTS_DIR } from './paths';
import { BenchResult } from './types';

/** Writes `bench/results/<name>.json`, formatted as `prettier --check` expects. */
export async function saveResult(result: BenchResult): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${result.name}.json`);
  const options = (await resolveConfig(path)) ?? {};
  writeFileSync(path, await format(JSON.stringify(result), { ...options, parser: 'json' }));
}

/** Every result present, from this run or earlier ones (other areas, subsets). */
export function loadResults(): BenchResult[] {
  let files: string[] = [];
  try {
    files = readdirSync(RESULTS_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8')) as BenchResult);
}

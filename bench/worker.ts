import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { BENCHMARKS } from './registry';
import { onServer } from './lib/database';
import { stopAll } from './lib/processes';

/**
 * Runs one benchmark in a process of its own (started by run.ts as a process group leader, so a
 * timeout kills it together with the nodes it started). Env: BENCH_NAME, BENCH_DATABASE_URL,
 * BENCH_NATS_URL, BENCH_PREFIX, BENCH_OUTPUT (where the measured JSON goes).
 */
async function main(): Promise<void> {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set (run benchmarks with npm run bench)`);
    return value;
  };
  const bench = BENCHMARKS.find((b) => b.name === env('BENCH_NAME'));
  if (!bench) throw new Error(`Unknown benchmark ${env('BENCH_NAME')}`);
  const measured = await bench.run({
    databaseUrl: env('BENCH_DATABASE_URL'),
    natsUrl: env('BENCH_NATS_URL'),
    prefix: env('BENCH_PREFIX'),
  });
  writeFileSync(env('BENCH_OUTPUT'), JSON.stringify(measured));
}

// The runner died: stop the nodes, drop the database it made for us, and go.
process.stdin
  .once('end', () => {
    const name = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://x/').pathname.slice(1);
    setTimeout(() => process.exit(1), 5_000).unref();
    void stopAll(1_000)
      .then(async () => {
        if (name) await onServer((c) => c.query(`drop database if exists ${name} with (force)`));
      })
      .finally(() => process.exit(1));
  })
  .resume();

main()
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await stopAll(2_000);
    process.exit(1);
  });

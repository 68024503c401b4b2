/** A bound a figure is held to: on its own value, or on its ratio to the same-run baseline. */
export interface Goal {
  of: 'value' | 'ratio';
  atLeast?: number;
  atMost?: number;
}

export interface Figure {
  /** What was measured, e.g. "Commands per second". */
  label: string;
  value: number;
  /** `/s`, `ms`, `B`, `s`. */
  unit: string;
  /** Measured in the same run, in the same unit. */
  baseline?: { label: string; value: number };
  /** value / baseline. */
  ratio?: number;
  goal?: Goal;
  met?: boolean;
}

/** What a benchmark measures; the runner adds the when and where. */
export interface Measured {
  /** How it was measured, one paragraph. */
  method: string;
  figures: Figure[];
  /** Setup and secondary numbers, rendered as a list. */
  details: Record<string, string | number>;
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  nats: string;
}

export interface Area {
  /** Sorts the sections of BENCHMARKS.md. */
  order: number;
  title: string;
}

export interface BenchResult extends Partial<Measured> {
  name: string;
  area: Area;
  order: number;
  title: string;
  ranAt: string;
  seconds: number;
  machine: Machine;
  /** Percent of all cores busy with other work in the second before it started (it skews the figures). */
  busyBefore?: number;
  /** The 1-minute load average when it started (other work and leftovers of the previous benchmark). */
  loadAverage?: number;
  /** Set when the benchmark did not finish; its figures are then absent. */
  error?: string;
}

/** Where a benchmark runs: a fresh database and a private NATS namespace. */
export interface BenchEnv {
  databaseUrl: string;
  natsUrl: string;
  prefix: string;
}

export interface Benchmark {
  /** `<area>.<short>`: the result file's name and what `npm run bench -- <name>` selects. */
  name: string;
  area: Area;
  order: number;
  title: string;
  /** The runner kills the benchmark's process group after this long. */
  timeoutMs: number;
  run(env: BenchEnv): Promise<Measured>;
}

export const ACTORS_AREA: Area = { order: 3, title: 'Actor runtime' };

/** A figure with its ratio and whether it met its goal filled in. */
export function figure(f: Omit<Figure, 'ratio' | 'met'>): Figure {
  const ratio = f.baseline && f.baseline.value !== 0 ? Number((f.value / f.baseline.value).toFixed(3)) : undefined;
  let met: boolean | undefined;
  if (f.goal) {
    const subject = f.goal.of === 'ratio' ? ratio : f.value;
    met =
      subject !== undefined &&
      (f.goal.atLeast === undefined || subject >= f.goal.atLeast) &&
      (f.goal.atMost === undefined || subject <= f.goal.atMost);
  }
  return { ...f, ratio, met };
}

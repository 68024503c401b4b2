import { round } from './stats';
import { Figure, figure } from './types';

type Percentile = 'p50' | 'p99';

/**
 * The p50 and p99 latency figures (ms) of what a benchmark measures, each against the same percentile
 * of its same-run baseline; in `label` and `baselineLabel`, `{p}` stands for the percentile.
 */
export function latencyFigures(
  measured: Record<Percentile, number>,
  baseline: Record<Percentile, number>,
  label: string,
  baselineLabel: string,
  digits = 3,
): Figure[] {
  return (['p50', 'p99'] as const).map((p) =>
    figure({
      label: label.replace('{p}', p),
      value: round(measured[p], digits),
      unit: 'ms',
      baseline: { label: baselineLabel.replace('{p}', p), value: round(baseline[p], digits) },
    }),
  );
}

import { metricsRegistry } from './metrics-registry';
import { processWide, sampledGauge } from './process-wide';

describe('processWide', () => {
  it('builds on the first call only and returns the same value after', () => {
    let builds = 0;
    const get = processWide(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = get();
    expect(get()).toBe(first);
    expect(builds).toBe(1);
  });
});

describe('sampledGauge', () => {
  it('reads its value when the registry is scraped', async () => {
    let value = 3;
    sampledGauge('process_wide_spec_gauge', 'A gauge of the spec', () => value);
    expect(await metricsRegistry.getSingleMetricAsString('process_wide_spec_gauge')).toContain(
      'process_wide_spec_gauge 3',
    );
    value = 5;
    expect(await metricsRegistry.getSingleMetricAsString('process_wide_spec_gauge')).toContain(
      'process_wide_spec_gauge 5',
    );
    metricsRegistry.removeSingleMetric('process_wide_spec_gauge');
  });
});

import { metricsRegistry } from '@app/metrics';
import type { MikroSqlExecutor } from '@app/persistence';
import { CertificateExpiryMetrics } from './certificate-expiry.metrics';

describe('CertificateExpiryMetrics', () => {
  it('answers a scrape within 2 s while the database does not answer at all', async () => {
    // A partitioned database: the query neither answers nor fails.
    const hung = { query: () => new Promise<never>(() => undefined) } as unknown as MikroSqlExecutor;
    new CertificateExpiryMetrics(hung).onModuleInit();
    const started = Date.now();
    const text = await metricsRegistry.getSingleMetricAsString('certificates_by_lifetime_left');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(text).toContain('# TYPE certificates_by_lifetime_left gauge');
  });
});

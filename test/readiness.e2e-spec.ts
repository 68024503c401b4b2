import { TestApp, eventually, startTestApp } from '@test/support';
import request from 'supertest';

describe('Readiness follows the database', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.db.admin(`alter database ${t.db.name} allow_connections true`).catch(() => undefined);
    await t?.close();
  });

  it('answers 503 while the database refuses connections, and 200 again after', async () => {
    await request(t.server).get('/readyz').expect(200);
    await t.db.admin(`alter database ${t.db.name} allow_connections false`);
    await t.db.admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${t.db.name}'`);

    const down = await request(t.server).get('/readyz').expect(503);
    expect(down.body).toMatchObject({
      error: 'service_unavailable',
      details: { checks: { database: 'down', bus: 'ok' } },
    });
    await request(t.server).get('/healthz').expect(200);

    await t.db.admin(`alter database ${t.db.name} allow_connections true`);
    const status = await eventually(
      async () => (await request(t.server).get('/readyz')).status,
      (code) => code === 200,
      { timeoutMs: 5_000, everyMs: 250, what: '/readyz to answer 200 again' },
    );
    expect(status).toBe(200);
  });
});

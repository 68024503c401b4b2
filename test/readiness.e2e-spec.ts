import { TestApp, startTestApp } from '@test/support';
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
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await request(t.server).get('/readyz')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  });
});

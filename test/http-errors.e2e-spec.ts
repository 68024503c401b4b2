import { Public } from '@app/auth';
import { AppConfig } from '@app/config';
import { ResolvedDatabase } from '@app/runtime';
import { Controller, Get, Module } from '@nestjs/common';
import { TEST_ADMIN_TOKEN, TestApp, startTestApp } from '@test/support';
import request from 'supertest';
import { StandaloneModule } from '../apps/standalone/src/standalone.module';

/** A route that fails the way a bug would, with SQL in the error: it must not leak. */
@Public()
@Controller('test-faults')
class FaultController {
  @Get('boom')
  boom(): never {
    throw new Error('relation "secret_table" does not exist: select * from secret_table');
  }
}

@Module({ controllers: [FaultController] })
class FaultModule {}

describe('HTTP errors and envelope', () => {
  let t: TestApp;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  beforeAll(async () => {
    t = await startTestApp({
      rootModule: (config: AppConfig, database: ResolvedDatabase) => ({
        module: FaultModule,
        imports: [StandaloneModule.forRoot(config, database)],
      }),
    });
  });
  afterAll(() => t?.close());

  it('answers healthz with ok and a request id', async () => {
    const res = await request(t.server).get('/healthz').expect(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers['x-service-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('answers readyz when the database and bus are up', async () => {
    const res = await request(t.server).get('/readyz').expect(200);
    expect(res.body).toEqual({ ok: true, checks: { database: 'ok', bus: 'ok' } });
  });

  it('answers unknown routes with 404 not_found in the envelope', async () => {
    const res = await request(t.server).get('/v1/nothing-here').expect(404);
    expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(res.headers['x-service-request-id']).toBeDefined();
    // A path that exists, with a method it does not have: 405 with the methods it has.
    const wrongMethod = await request(t.server).delete('/healthz').expect(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    expect(wrongMethod.body).toMatchObject({ error: 'method_not_allowed', details: { allow: ['GET', 'HEAD'] } });
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .set('content-type', 'application/json')
      .send('{"name": "x",')
      .expect(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toMatch(/JSON/);
  });

  it('answers a non-JSON content type with 400 bad_request', async () => {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .set('content-type', 'text/plain')
      .send('name=x')
      .expect(400);
    expect(res.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/application\/json/) });
  });

  it('refuses prototype pollution in JSON bodies', async () => {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .set('content-type', 'application/json')
      .send('{"name":"x","__proto__":{"admin":true}}')
      .expect(400);
    expect(res.body.error).toBe('bad_request');
  });

  it('names the failing fields in details on validation errors', async () => {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .send({ name: '', paymentMethod: 'visa', extra: 1 })
      .expect(400);
    expect(res.body.error).toBe('bad_request');
    const fields = (res.body.details.fields as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['extra', 'name', 'paymentMethod']);
  });

  it('answers a missing body with 400 naming the required field', async () => {
    const res = await request(t.server).post('/admin/workspaces').set(admin).expect(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain('name');
  });

  it('answers bodies over 1 MiB with 413 in the envelope', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .set('content-type', 'application/json')
      .send(big)
      .expect(413);
    expect(res.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
  });

  it('answers unexpected failures with 500 internal_error and no internals', async () => {
    const res = await request(t.server).get('/test-faults/boom').expect(500);
    expect(res.body).toEqual({ error: 'internal_error', message: 'Something went wrong on our side' });
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|select|at /);
    expect(res.headers['x-service-request-id']).toBeDefined();
  });
});

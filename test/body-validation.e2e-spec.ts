import { ModulesContainer } from '@nestjs/core';
import { TEST_ADMIN_TOKEN, TestApp, startTestApp } from '@test/support';
import fc from 'fast-check';
import request from 'supertest';
import type { RouteInfo } from '../libs/openapi/src/route-scanner';
import { scanRoutes } from '../libs/openapi/src/route-scanner';
import { BodyField, bodyFields, bodyWith, hasKind } from './support/body-fields';

/**
 * Every field of every request body the app declares (found from the routes' own metadata, so a new
 * DTO is covered without editing this file) refuses null, wrong types, arrays and objects with 400
 * `bad_request` naming the field with one problem: never a 500, never a stored null.
 */
describe('request bodies: null and wrong types', () => {
  let t: TestApp;
  let apiKey: string;
  let routes: (RouteInfo & { body: NonNullable<RouteInfo['body']> })[];

  beforeAll(async () => {
    t = await startTestApp();
    const ws = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'ws', paymentMethod: 'pm_card_visa' })
      .expect(201);
    apiKey = ws.body.apiKey as string;
    routes = scanRoutes(t.app.get(ModulesContainer)).filter((r): r is (typeof routes)[number] => !!r.body);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (route: RouteInfo, body: unknown) => {
    const path = route.path.replace(/\{[^}]+\}/g, 'x_0000000000000000000000');
    const req = request(t.server)[route.method.toLowerCase() as 'post'](path).set('content-type', 'application/json');
    if (route.auth === 'admin') req.set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
    if (route.auth === 'workspace') req.set('authorization', `Bearer ${apiKey}`);
    return req.send(JSON.stringify(body));
  };

  const expectRefused = (res: request.Response, field: string, what: string) => {
    if (res.status !== 400) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body.error).toBe('bad_request');
    // A `__proto__` or `constructor` key is refused by the JSON parser itself, before any field is read.
    if (res.body.details === undefined && /prototype|__proto__|constructor/i.test(res.body.message)) return;
    expect(Object.keys(res.body).sort()).toEqual(['details', 'error', 'message']);
    const fields = res.body.details.fields as { field: string; problems: string[] }[];
    const named = fields.find((f) => f.field === field);
    if (!named) throw new Error(`${what}: ${field} not named in ${JSON.stringify(fields)}`);
    expect(named.problems).toHaveLength(1);
  };

  const allFields = () => routes.flatMap((route) => bodyFields(route.body).map((field) => ({ route, field })));

  it('finds the bodies: domains, purchases, webhooks, projects, admin, sessions, dns apply, record checks', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'POST /v1/domains',
      'PATCH /v1/domains/{id}',
      'POST /v1/domain-purchases',
      'PUT /v1/domain-purchases/{id}/dns',
      'POST /v1/webhook-endpoints',
      'PATCH /v1/projects/{id}',
      'POST /admin/workspaces',
      'POST /v1/domains/{id}/connect-session',
      'POST /v1/dns/check-records-single',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(allFields().length).toBeGreaterThan(60);
  });

  it('refuses a body that is not a JSON object: null, an array, a string, a number', async () => {
    for (const route of routes) {
      for (const body of [null, [], [{}], 'x', 7, true]) {
        const res = await send(route, body);
        expectRefused(res, 'body', `${route.method} ${route.path} ${JSON.stringify(body)}`);
        expect(res.body.message).toBe('Invalid request: the body must be a JSON object');
      }
    }
  });

  it('refuses null, wrong types, arrays and objects in every field, naming it with one problem', async () => {
    const wrong = [null, true, 0, 1.5, 'x', '', [], ['x'], {}, { a: 1 }];
    for (const { route, field } of allFields()) {
      for (const value of wrong) {
        if (hasKind(field.kind, value) || (value === null && field.nullable)) continue;
        const res = await send(route, bodyWith(field.path, value));
        expectRefused(res, field.name, `${route.method} ${route.path} ${field.name}=${JSON.stringify(value)}`);
        const named = (res.body.details.fields as { field: string; problems: string[] }[]).find(
          (f) => f.field === field.name,
        );
        if (value === null) expect(named?.problems[0]).not.toMatch(/is required/);
      }
    }
  });

  it('never answers 500 to random values, and refuses every value of the wrong kind', async () => {
    const fields = allFields();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.anything(), async ({ route, field }, value) => {
        const res = await send(route, bodyWith(field.path, value));
        expect(res.status).toBeLessThan(500);
        if (res.status === 400) expect(res.body.error).toBe('bad_request');
        // Judged as the server receives it: JSON has no Infinity or NaN (they travel as null).
        const received = value === undefined ? undefined : (JSON.parse(JSON.stringify([value])) as unknown[])[0];
        const refused =
          received !== undefined && !hasKind(field.kind, received) && !(received === null && field.nullable);
        if (refused) expectRefused(res, field.name, `${route.method} ${route.path} ${field.name}`);
      }),
      { numRuns: 300 },
    );
  });

  it('says why a body was not parsed: a poisoning key (valid JSON, refused) or malformed JSON', async () => {
    const post = (raw: string) =>
      request(t.server)
        .post('/v1/domains')
        .set('authorization', `Bearer ${apiKey}`)
        .set('content-type', 'application/json')
        .send(raw)
        .expect(400);
    for (const raw of ['{"hostname":{"__proto__":[]}}', '{"metadata":{"constructor":{"prototype":{}}}}']) {
      const res = await post(raw);
      expect(res.body).toEqual({ error: 'bad_request', message: expect.stringMatching(/"__proto__" key/) });
    }
    const malformed = await post('{"hostname": "x",}');
    expect(malformed.body.message).toMatch(/^Malformed JSON body: /);
  });

  it('says "X is required" and only that for a missing field', async () => {
    const res = await send(
      routes.find((r) => r.method === 'POST' && r.path === '/v1/domains')!,
      {
        hostname: 'shop.example.com',
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid request: originUrl is required');
    expect(res.body.details.fields).toEqual([{ field: 'originUrl', problems: ['originUrl is required'] }]);
  });

  it('says what a wrong type is, not the size rules it also breaks', async () => {
    const webhooks = routes.find((r) => r.method === 'POST' && r.path === '/v1/webhook-endpoints')!;
    const res = await send(webhooks, { url: 'https://hooks.example.com', events: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toEqual([{ field: 'events', problems: ['events must be an array'] }]);
  });

  it('is exhaustive for nested fields too (registrant, autoConnect, records)', () => {
    const names = allFields().map(({ field }: { field: BodyField }) => field.name);
    expect(names).toEqual(
      expect.arrayContaining(['registrant.firstName', 'autoConnect.originUrl', 'records.0.type', 'records.0.value']),
    );
  });
});

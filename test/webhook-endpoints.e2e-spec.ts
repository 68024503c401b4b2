import { SecretBox } from '@app/crypto';
import { EVENT_TYPES } from '@app/webhooks';
import { TEST_ADMIN_TOKEN, TEST_ENCRYPTION_KEY, TestApp, startTestApp } from '@test/support';
import request from 'supertest';

describe('/v1/webhook-endpoints', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  const as = (k: string) => ({ authorization: `Bearer ${k}` });
  const create = (body: unknown, k = key) =>
    request(t.server)
      .post('/v1/webhook-endpoints')
      .set(as(k))
      .send(body as object);

  async function workspace(): Promise<string> {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(as(TEST_ADMIN_TOKEN))
      .send({ name: 'ws' })
      .expect(201);
    return res.body.apiKey as string;
  }

  beforeAll(async () => {
    t = await startTestApp();
    [key, otherKey] = await Promise.all([workspace(), workspace()]);
  });
  afterAll(() => t?.close());

  it('creates an endpoint: whe_ id, whsec_ secret shown once, events as sent', async () => {
    const res = await create({ url: 'https://hooks.example.com/a', events: ['domain.verified', 'domain.created'] });
    expect(res.status).toBe(201);
    const { endpoint } = res.body;
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.com/a',
      events: ['domain.created', 'domain.verified'],
      enabled: true,
    });
    expect(Object.keys(endpoint).slice(0, 4)).toEqual(['id', 'url', 'secret', 'events']);
    expect(endpoint.id).toMatch(/^whe_[0-9A-Za-z]{22}$/);
    expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);

    const got = await request(t.server).get(`/v1/webhook-endpoints/${endpoint.id}`).set(as(key)).expect(200);
    expect(got.body.endpoint.secret).toBeUndefined();
    expect(got.body.endpoint).toMatchObject({ id: endpoint.id, url: endpoint.url, events: endpoint.events });

    // At rest the secret is sealed, and opens to what was shown.
    const [row] = await t.db.query('select secret_sealed from webhook_endpoints where id = $1', [endpoint.id]);
    expect(row.secret_sealed).not.toContain(endpoint.secret);
    expect(new SecretBox(TEST_ENCRYPTION_KEY).open(row.secret_sealed)).toBe(endpoint.secret);
  });

  it('takes an empty events list (or none) as every event', async () => {
    const empty = await create({ url: 'https://hooks.example.com/all', events: [] }).expect(201);
    expect(empty.body.endpoint.events).toEqual([]);
    const absent = await create({ url: 'https://hooks.example.com/all2' }).expect(201);
    expect(absent.body.endpoint.events).toEqual([]);
  });

  it('leaves the address rules (SSRF) to each delivery, which records a refusal: a private address is taken', async () => {
    const res = await create({ url: 'http://10.0.0.1/internal', events: [] }).expect(201);
    expect(res.body.endpoint.url).toBe('http://10.0.0.1/internal');
  });

  it.each([
    [
      'hooks.example.com/in',
      'url must be an absolute http or https URL: add the scheme, e.g. https://hooks.example.com/in',
    ],
    ['not a url at all', 'url must be an absolute http or https URL, e.g. https://app.example.com'],
    ['ftp://hooks.example.com/in', 'url must use http or https, not ftp'],
    ['https://user:pw@hooks.example.com/in', 'url must not contain a user name or password'],
  ])('refuses a URL no delivery could be sent to, at creation and update: %j', async (url, message) => {
    const rows = async () =>
      (await t.db.query<{ id: string; url: string }>('select id, url from webhook_endpoints'))
        .map((r) => `${r.id} ${r.url}`)
        .sort();
    const before = await rows();
    const created = await create({ url, events: [] }).expect(400);
    expect(created.body).toEqual({
      error: 'bad_request',
      message: `Invalid request: ${message}`,
      details: { fields: [{ field: 'url', problems: [message] }] },
    });
    const { endpoint } = (await create({ url: 'https://hooks.example.com/ok' }).expect(201)).body;
    const patched = await request(t.server)
      .patch(`/v1/webhook-endpoints/${endpoint.id}`)
      .set(as(key))
      .send({ url })
      .expect(400);
    expect(patched.body.details.fields).toEqual([{ field: 'url', problems: [message] }]);
    // Nothing stored by the refusals: the only new row is the endpoint created in between.
    expect(await rows()).toEqual([...before, `${endpoint.id} https://hooks.example.com/ok`].sort());
  });

  it.each([
    [{ url: 'https://h.example.com', events: ['domain.created', 'domain.exploded'] }, 'events'],
    [{ url: 'https://h.example.com', events: ['*'] }, 'events'],
    [{ url: 'https://h.example.com', events: 'domain.created' }, 'events'],
    [{ url: 'https://h.example.com', events: [1] }, 'events'],
    [{ events: [] }, 'url'],
    [{ url: '', events: [] }, 'url'],
    [{ url: 'https://h.example.com', events: [], secret: 'whsec_mine' }, 'secret'],
  ])('answers 400 bad_request for %j', async (body, field) => {
    const res = await create(body).expect(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toContain(field);
  });

  it('names the known types when it refuses an unknown one', async () => {
    const res = await create({ url: 'https://h.example.com', events: ['domain.exploded'] }).expect(400);
    for (const type of EVENT_TYPES) expect(res.body.message).toContain(type);
  });

  it('lists newest first with a cursor, without secrets, in the caller workspace only', async () => {
    const mine = await workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ url: `https://h.example.com/${i}` }, mine)).body.endpoint.id);
    const first = await request(t.server).get('/v1/webhook-endpoints?limit=3').set(as(mine)).expect(200);
    expect(first.body.endpoints.map((e: any) => e.id)).toEqual(ids.slice(2).reverse());
    expect(first.body.endpoints.every((e: any) => e.secret === undefined)).toBe(true);
    const second = await request(t.server)
      .get(`/v1/webhook-endpoints?limit=3&cursor=${first.body.nextCursor}`)
      .set(as(mine))
      .expect(200);
    expect(second.body.endpoints.map((e: any) => e.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.body.nextCursor).toBeNull();
    await request(t.server).get('/v1/webhook-endpoints?cursor=nope').set(as(mine)).expect(400);
    await request(t.server).get('/v1/webhook-endpoints?limit=101').set(as(mine)).expect(400);
  });

  it('updates url, events and enabled; only what was sent changes', async () => {
    const { endpoint } = (await create({ url: 'https://h.example.com/u', events: ['domain.created'] })).body;
    const path = `/v1/webhook-endpoints/${endpoint.id}`;
    const disabled = await request(t.server).patch(path).set(as(key)).send({ enabled: false }).expect(200);
    expect(disabled.body.endpoint).toMatchObject({ url: endpoint.url, events: ['domain.created'], enabled: false });
    const changed = await request(t.server)
      .patch(path)
      .set(as(key))
      .send({ url: 'https://h.example.com/v', events: [] })
      .expect(200);
    expect(changed.body.endpoint).toMatchObject({ url: 'https://h.example.com/v', events: [], enabled: false });
    expect(changed.body.endpoint.secret).toBeUndefined();
    expect((await request(t.server).patch(path).set(as(key)).send({}).expect(400)).body.error).toBe('bad_request');
    await request(t.server)
      .patch(path)
      .set(as(key))
      .send({ events: ['nope'] })
      .expect(400);
  });

  it('rotates the secret: the new one is shown once and replaces the old', async () => {
    const { endpoint } = (await create({ url: 'https://h.example.com/r' })).body;
    const rotated = await request(t.server)
      .post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
      .set(as(key))
      .expect(200);
    expect(rotated.body.endpoint.secret).toMatch(/^whsec_/);
    expect(rotated.body.endpoint.secret).not.toBe(endpoint.secret);
    const [row] = await t.db.query('select secret_sealed from webhook_endpoints where id = $1', [endpoint.id]);
    expect(new SecretBox(TEST_ENCRYPTION_KEY).open(row.secret_sealed)).toBe(rotated.body.endpoint.secret);
  });

  it('deletes; then every path answers 404', async () => {
    const { endpoint } = (await create({ url: 'https://h.example.com/d' })).body;
    const path = `/v1/webhook-endpoints/${endpoint.id}`;
    expect((await request(t.server).delete(path).set(as(key)).expect(200)).body).toEqual({
      deleted: true,
      id: endpoint.id,
    });
    await request(t.server).get(path).set(as(key)).expect(404);
    await request(t.server).delete(path).set(as(key)).expect(404);
    await request(t.server).get(`${path}/deliveries`).set(as(key)).expect(404);
  });

  it("answers 404 for another workspace's endpoint on every path", async () => {
    const { endpoint } = (await create({ url: 'https://h.example.com/o' })).body;
    const path = `/v1/webhook-endpoints/${endpoint.id}`;
    const res = await request(t.server).get(path).set(as(otherKey)).expect(404);
    expect(res.body).toMatchObject({ error: 'not_found' });
    await request(t.server).patch(path).set(as(otherKey)).send({ enabled: false }).expect(404);
    await request(t.server).post(`${path}/rotate-secret`).set(as(otherKey)).expect(404);
    await request(t.server).get(`${path}/deliveries`).set(as(otherKey)).expect(404);
    await request(t.server).delete(path).set(as(otherKey)).expect(404);
    await request(t.server).get(path).set(as(key)).expect(200);
  });

  it('needs a workspace key', async () => {
    await request(t.server).get('/v1/webhook-endpoints').expect(401);
    await request(t.server).post('/v1/webhook-endpoints').send({ url: 'https://x.example.com' }).expect(401);
    await request(t.server).get('/v1/events').expect(401);
  });
});

import { EntityManager } from '@mikro-orm/postgresql';
import { TEST_ADMIN_TOKEN, TestApp, startTestApp } from '@test/support';
import request from 'supertest';

describe('Auth and the admin API', () => {
  let t: TestApp;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  async function createWorkspace(body: Record<string, unknown> = { name: 'Acme' }) {
    const res = await request(t.server).post('/admin/workspaces').set(admin).send(body).expect(201);
    return res.body as {
      workspace: { id: string; name: string; hasPaymentMethod: boolean };
      apiKey: string;
      apiKeyId: string;
    };
  }

  it('creates a workspace with a key that authenticates', async () => {
    const created = await createWorkspace({ name: 'Acme', paymentMethod: 'pm_card_visa' });
    expect(created.workspace).toMatchObject({ name: 'Acme', hasPaymentMethod: true });
    expect(created.workspace.id).toMatch(/^ws_[0-9A-Za-z]{22}$/);
    expect(created.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
    const me = await request(t.server)
      .get('/v1/workspace')
      .set('authorization', `Bearer ${created.apiKey}`)
      .expect(200);
    expect(me.body.workspace).toMatchObject({ id: created.workspace.id, name: 'Acme', hasPaymentMethod: true });
    expect(me.headers['x-service-request-id']).toBeDefined();
  });

  it('stores keys only as hashes', async () => {
    const created = await createWorkspace();
    const rows = await t.app
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute('select * from api_keys where id = ?', [created.apiKeyId]);
    expect(JSON.stringify(rows)).not.toContain(created.apiKey);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['no header', undefined],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a malformed key', 'Bearer sk_live_short'],
    ['an unknown key', `Bearer sk_live_${'a'.repeat(43)}`],
    ['the admin token', `Bearer ${TEST_ADMIN_TOKEN}`],
  ])('answers 401 unauthorized for %s', async (_, header) => {
    const req = request(t.server).get('/v1/workspace');
    if (header) req.set('authorization', header);
    const res = await req.expect(401);
    expect(res.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('rejects a revoked key at once', async () => {
    const created = await createWorkspace();
    const auth = { authorization: `Bearer ${created.apiKey}` };
    await request(t.server).get('/v1/workspace').set(auth).expect(200);
    const revoked = await request(t.server).delete(`/admin/api-keys/${created.apiKeyId}`).set(admin).expect(200);
    expect(revoked.body.apiKey.revokedAt).toEqual(expect.any(String));
    await request(t.server).get('/v1/workspace').set(auth).expect(401);
  });

  it('issues more keys for a workspace, each shown once', async () => {
    const created = await createWorkspace();
    const res = await request(t.server)
      .post(`/admin/workspaces/${created.workspace.id}/api-keys`)
      .set(admin)
      .expect(201);
    expect(res.body.apiKey).not.toBe(created.apiKey);
    await request(t.server).get('/v1/workspace').set('authorization', `Bearer ${res.body.apiKey}`).expect(200);
    const listed = await request(t.server).get(`/admin/workspaces/${created.workspace.id}`).set(admin).expect(200);
    expect(listed.body.apiKeys).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain(res.body.apiKey);
  });

  it('sets and removes the saved card', async () => {
    const { workspace } = await createWorkspace();
    expect(workspace.hasPaymentMethod).toBe(false);
    const set = await request(t.server)
      .put(`/admin/workspaces/${workspace.id}/payment-method`)
      .set(admin)
      .send({ paymentMethod: 'pm_card_visa' })
      .expect(200);
    expect(set.body.workspace.hasPaymentMethod).toBe(true);
    await request(t.server)
      .put(`/admin/workspaces/${workspace.id}/payment-method`)
      .set(admin)
      .send({ paymentMethod: 'not-a-card' })
      .expect(400);
    const removed = await request(t.server)
      .delete(`/admin/workspaces/${workspace.id}/payment-method`)
      .set(admin)
      .expect(200);
    expect(removed.body.workspace.hasPaymentMethod).toBe(false);
  });

  it('answers 404 for unknown workspaces and keys', async () => {
    await request(t.server).post('/admin/workspaces/ws_nope/api-keys').set(admin).expect(404);
    await request(t.server)
      .put('/admin/workspaces/ws_nope/payment-method')
      .set(admin)
      .send({ paymentMethod: 'pm_card_visa' })
      .expect(404);
    const res = await request(t.server).delete('/admin/api-keys/key_nope').set(admin).expect(404);
    expect(res.body.error).toBe('not_found');
  });

  it('never lets a workspace key or a wrong token into the admin API', async () => {
    const created = await createWorkspace();
    await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${created.apiKey}`)
      .send({ name: 'x' })
      .expect(401);
    await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', 'Bearer wrong-admin-token-123456')
      .send({ name: 'x' })
      .expect(401);
    await request(t.server).post('/admin/workspaces').send({ name: 'x' }).expect(401);
  });
});

describe('Admin API without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ role: 'api', env: { ADMIN_TOKEN: '', NATS_URL: 'nats://127.0.0.1:4222' } });
  });
  afterAll(() => t?.close());

  it('is off: 403 forbidden whatever the token', async () => {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', 'Bearer anything-at-all-123456')
      .send({ name: 'x' })
      .expect(403);
    expect(res.body).toEqual({ error: 'forbidden', message: expect.stringMatching(/ADMIN_TOKEN/) });
  });
});

describe('cluster status (standalone)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('shows the one node owning every shard, to the admin only', async () => {
    const res = await request(t.server)
      .get('/admin/cluster')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    expect(res.body).toMatchObject({ shardCount: 4096, unowned: 0 });
    expect(res.body.nodes).toHaveLength(1);
    expect(res.body.nodes[0]).toMatchObject({ shardsOwned: 4096, shards: '0-4095', draining: false });
    await request(t.server).get('/admin/cluster').expect(401);
  });
});

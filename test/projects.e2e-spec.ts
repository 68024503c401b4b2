import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
} from '@test/support';
import request from 'supertest';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('/v1/projects and domains in projects', () => {
  let dns: DnsServer;
  let t: TestApp;
  let auth: { authorization: string };
  let other: { authorization: string };
  let workspaceId: string;

  async function workspace(): Promise<{ key: string; id: string }> {
    const res = await request(t.server)
      .post('/admin/workspaces')
      .set(admin)
      .send({ name: 'projects', paymentMethod: 'pm_card_visa' })
      .expect(201);
    return { key: res.body.apiKey as string, id: res.body.workspace.id as string };
  }

  const createProject = (body: Record<string, unknown>, headers = auth) =>
    request(t.server).post('/v1/projects').set(headers).send(body);

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    const [a, b] = await Promise.all([workspace(), workspace()]);
    auth = { authorization: `Bearer ${a.key}` };
    other = { authorization: `Bearer ${b.key}` };
    workspaceId = a.id;
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('creates a project: 201 with id prj_..., defaults for description and metadata', async () => {
    const res = await createProject({ name: '  Marketing sites ' }).expect(201);
    expect(res.body.project).toEqual({
      id: expect.stringMatching(/^prj_[0-9A-Za-z]+$/),
      name: 'Marketing sites',
      description: null,
      metadata: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const full = await createProject({ name: 'Shop', description: 'Storefronts', metadata: { team: 'x' } }).expect(201);
    expect(full.body.project).toMatchObject({ name: 'Shop', description: 'Storefronts', metadata: { team: 'x' } });
    const fetched = await request(t.server).get(`/v1/projects/${full.body.project.id}`).set(auth).expect(200);
    expect(fetched.body).toEqual(full.body);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 'ok', description: 5 }, 'description'],
    [{ name: 'ok', metadata: [1] }, 'metadata'],
    [{ name: 'ok', color: 'red' }, 'color'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await createProject(body).expect(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const send = () => createProject({ name: 'Once' }).set('idempotency-key', 'prj-once');
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await t.db.query("select id from projects where name = 'Once'");
    expect(rows).toHaveLength(1);
  });

  it('lists newest first with a keyset cursor, scoped to the workspace', async () => {
    const ws = await workspace();
    const mine = { authorization: `Bearer ${ws.key}` };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createProject({ name: `p${i}` }, mine).expect(201)).body.project.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: request.Response = await request(t.server)
        .get('/v1/projects')
        .query(cursor ? { limit: 2, cursor } : { limit: 2 })
        .set(mine)
        .expect(200);
      seen.push(...res.body.projects.map((p: { id: string }) => p.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    await request(t.server).get('/v1/projects').query({ limit: 0 }).set(mine).expect(400);
    await request(t.server).get('/v1/projects').query({ cursor: 'bogus' }).set(mine).expect(400);
    const theirs = await request(t.server).get('/v1/projects').set(other).expect(200);
    expect(theirs.body.projects.map((p: { id: string }) => p.id)).not.toContain(ids[0]);
  });

  it('patches only sent fields, clears description with null, refuses an empty patch', async () => {
    const id = (await createProject({ name: 'Old', description: 'd', metadata: { a: 1 } }).expect(201)).body.project.id;
    const renamed = await request(t.server).patch(`/v1/projects/${id}`).set(auth).send({ name: 'New' }).expect(200);
    expect(renamed.body.project).toMatchObject({ name: 'New', description: 'd', metadata: { a: 1 } });
    const cleared = await request(t.server)
      .patch(`/v1/projects/${id}`)
      .set(auth)
      .send({ description: null, metadata: { b: 2 } })
      .expect(200);
    expect(cleared.body.project).toMatchObject({ name: 'New', description: null, metadata: { b: 2 } });
    const empty = await request(t.server).patch(`/v1/projects/${id}`).set(auth).send({}).expect(400);
    expect(empty.body.message).toMatch(/at least one/);
    await request(t.server).patch(`/v1/projects/${id}`).set(auth).send({ name: '' }).expect(400);
    await request(t.server).patch(`/v1/projects/${id}`).set(other).send({ name: 'Mine' }).expect(404);
  });

  it('answers 404 for unknown and foreign ids', async () => {
    const id = (await createProject({ name: 'Private' }).expect(201)).body.project.id;
    await request(t.server).get(`/v1/projects/${id}`).set(other).expect(404);
    await request(t.server).delete(`/v1/projects/${id}`).set(other).expect(404);
    const missing = await request(t.server).get('/v1/projects/prj_missing').set(auth).expect(404);
    expect(missing.body).toEqual({ error: 'not_found', message: 'Project was not found' });
    await request(t.server).get('/v1/projects/not-an-id').set(auth).expect(404);
  });

  describe('domains with a projectId', () => {
    let projectA: string;
    let projectB: string;

    beforeAll(async () => {
      projectA = (await createProject({ name: 'A' }).expect(201)).body.project.id;
      projectB = (await createProject({ name: 'B' }).expect(201)).body.project.id;
    });

    const createDomain = (body: Record<string, unknown>, headers = auth) =>
      request(t.server)
        .post('/v1/domains')
        .set(headers)
        .send({ originUrl: ORIGIN_URL, ...body });

    it('carries the project through create, get, list filter, patch and detach', async () => {
      const created = await createDomain({ hostname: 'p1.customer-a.com', projectId: projectA }).expect(201);
      const id = created.body.domain.id as string;
      expect(created.body.domain.projectId).toBe(projectA);
      const plain = await createDomain({ hostname: 'p2.customer-a.com' }).expect(201);
      expect(plain.body.domain.projectId).toBeNull();
      const inA = await request(t.server).get('/v1/domains').query({ projectId: projectA }).set(auth).expect(200);
      expect(inA.body.domains.map((d: { id: string }) => d.id)).toEqual([id]);
      const moved = await request(t.server)
        .patch(`/v1/domains/${id}`)
        .set(auth)
        .send({ projectId: projectB })
        .expect(200);
      expect(moved.body.domain.projectId).toBe(projectB);
      expect(
        (await request(t.server).get('/v1/domains').query({ projectId: projectA }).set(auth).expect(200)).body.domains,
      ).toEqual([]);
      const inB = await request(t.server).get('/v1/domains').query({ projectId: projectB }).set(auth).expect(200);
      expect(inB.body.domains.map((d: { id: string }) => d.id)).toEqual([id]);
      const detached = await request(t.server)
        .patch(`/v1/domains/${id}`)
        .set(auth)
        .send({ projectId: null })
        .expect(200);
      expect(detached.body.domain.projectId).toBeNull();
      expect((await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain.projectId).toBeNull();
      const rows = await t.db.query('select project_id from domains where id = $1', [id]);
      expect(rows).toEqual([{ project_id: null }]);
    });

    it('refuses a project that is unknown or of another workspace with 400', async () => {
      const foreign = (await createProject({ name: 'Theirs' }, other).expect(201)).body.project.id;
      for (const projectId of ['prj_missing', foreign, 'nonsense']) {
        const res = await createDomain({ hostname: 'p3.customer-a.com', projectId }).expect(400);
        expect(res.body).toMatchObject({ error: 'bad_request', details: { field: 'projectId' } });
      }
      await createDomain({ hostname: 'p3.customer-a.com', projectId: 7 }).expect(400);
      const plain = await createDomain({ hostname: 'p3.customer-a.com' }).expect(201);
      await request(t.server)
        .patch(`/v1/domains/${plain.body.domain.id}`)
        .set(auth)
        .send({ projectId: foreign })
        .expect(400);
    });

    it('refuses to delete a project while live domains use it (409), then deletes it', async () => {
      const project = (await createProject({ name: 'Busy' }).expect(201)).body.project.id;
      const d1 = (await createDomain({ hostname: 'busy1.customer-a.com', projectId: project }).expect(201)).body.domain;
      const d2 = (await createDomain({ hostname: 'busy2.customer-a.com', projectId: project }).expect(201)).body.domain;
      const refused = await request(t.server).delete(`/v1/projects/${project}`).set(auth).expect(409);
      expect(refused.body).toMatchObject({ error: 'conflict', details: { projectId: project, domains: 2 } });
      await request(t.server).patch(`/v1/domains/${d1.id}`).set(auth).send({ projectId: null }).expect(200);
      await request(t.server).delete(`/v1/domains/${d2.id}`).set(auth).expect(200);
      const deleted = await request(t.server).delete(`/v1/projects/${project}`).set(auth).expect(200);
      expect(deleted.body).toEqual({ deleted: true, id: project });
      await request(t.server).get(`/v1/projects/${project}`).set(auth).expect(404);
      await request(t.server).delete(`/v1/projects/${project}`).set(auth).expect(404);
    });
  });

  it('enforces the projects scope for OAuth tokens', async () => {
    const registered = await request(t.server)
      .post(`/admin/workspaces/${workspaceId}/oauth-clients`)
      .set(admin)
      .send({ name: 'reader', scopes: ['projects:read'] })
      .expect(201);
    const token = await request(t.server)
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'client_credentials',
        client_id: registered.body.client_id,
        client_secret: registered.body.client_secret,
      })
      .expect(200);
    const bearer = { authorization: `Bearer ${token.body.access_token}` };
    await request(t.server).get('/v1/projects').set(bearer).expect(200);
    const denied = await createProject({ name: 'No' }, bearer).expect(403);
    expect(denied.body.details).toEqual({ requiredScope: 'projects:write' });
  });
});

import { TestApp, createWorkspaceVia, insertOutboxEvents, startTestApp } from '@test/support';
import request from 'supertest';

describe('/v1/events', () => {
  let t: TestApp;
  let key: string;
  let other: string;
  let workspaceId: string;
  let ids: string[];
  const types = ['domain.created', 'domain.verified', 'domain_purchase.completed', 'domain.created', 'domain.deleted'];
  const get = (path: string, k = key) => request(t.server).get(path).set('authorization', `Bearer ${k}`);

  beforeAll(async () => {
    t = await startTestApp();
    ({ apiKey: key, workspaceId } = await createWorkspaceVia(t.server));
    const second = await createWorkspaceVia(t.server);
    other = second.apiKey;
    ids = await insertOutboxEvents(
      t,
      workspaceId,
      types.map((type, i) => ({
        type,
        data: type.startsWith('domain_purchase') ? { purchase: { id: `p${i}` } } : undefined,
      })),
    );
    // Spread the creation times over three days (UTC) to test the date filters.
    const days = [
      '2030-03-01T10:00:00Z',
      '2030-03-01T23:59:59.5Z',
      '2030-03-02T00:00:00Z',
      '2030-03-02T12:00:00Z',
      '2030-03-03T00:00:01Z',
    ];
    for (const [i, id] of ids.entries()) {
      await t.db.query('update outbox_events set created_at = $1 where id = $2', [days[i], id]);
    }
    await insertOutboxEvents(t, second.workspaceId, [{ type: 'domain.created' }]);
  });
  afterAll(() => t?.close());

  it('lists the workspace events newest first as envelopes', async () => {
    const res = await get('/v1/events').expect(200);
    expect(res.body.events.map((e: any) => e.id)).toEqual([...ids].reverse());
    expect(res.body.nextCursor).toBeNull();
    const purchase = res.body.events.find((e: any) => e.type === 'domain_purchase.completed');
    expect(purchase).toEqual({
      id: ids[2],
      type: 'domain_purchase.completed',
      createdAt: '2030-03-02T00:00:00.000Z',
      timestamp: Date.parse('2030-03-02T00:00:00Z') / 1000,
      workspaceId,
      data: { purchase: { id: 'p2' } },
    });
  });

  it('pages with an opaque cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res: request.Response = await get(`/v1/events?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      seen.push(...res.body.events.map((e: any) => e.id));
      cursor = res.body.nextCursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('pages through events created in the same millisecond without skipping or repeating', async () => {
    const ws = await createWorkspaceVia(t.server);
    const burst = await insertOutboxEvents(
      t,
      ws.workspaceId,
      Array.from({ length: 30 }, () => ({ type: 'domain.created' })),
    );
    await t.db.query(`update outbox_events set created_at = '2030-01-01T00:00:00.123Z' where workspace_id = $1`, [
      ws.workspaceId,
    ]);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res: request.Response = await get(
        `/v1/events?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        ws.apiKey,
      ).expect(200);
      seen.push(...res.body.events.map((e: any) => e.id));
      cursor = res.body.nextCursor;
    }
    expect(seen.sort()).toEqual([...burst].sort());
  });

  it.each([
    ['type=domain.created', [0, 3]],
    ['type=domain.created&type=domain.deleted', [0, 3, 4]],
    ['type=domain.verified,domain_purchase.completed', [1, 2]],
    ['createdAfter=2030-03-02', [2, 3, 4]],
    ['createdBefore=2030-03-01', [0, 1]],
    ['createdAfter=2030-03-01T23:59:59.5Z&createdBefore=2030-03-02T12:00:00Z', [1, 2, 3]],
    ['createdAfter=2030-03-02&createdBefore=2030-03-02&type=domain.created', [3]],
    ['createdAfter=2030-03-04', []],
  ])('filters: %s', async (query, expected) => {
    const res = await get(`/v1/events?${query}`).expect(200);
    expect(res.body.events.map((e: any) => e.id)).toEqual(expected.map((i) => ids[i]).reverse());
  });

  it.each(['type=domain.exploded', 'createdAfter=yesterday', 'limit=0', 'limit=101', 'cursor=abc', 'foo=1'])(
    'answers 400 for %s',
    async (query) => {
      expect((await get(`/v1/events?${query}`).expect(400)).body.error).toBe('bad_request');
    },
  );

  it('gets one event; another workspace gets 404', async () => {
    const res = await get(`/v1/events/${ids[1]}`).expect(200);
    expect(res.body.event).toMatchObject({ id: ids[1], type: 'domain.verified', workspaceId });
    expect((await get(`/v1/events/${ids[1]}`, other).expect(404)).body.error).toBe('not_found');
    await get('/v1/events/evt_missing').expect(404);
  });

  it('replays: 404 for a foreign event or endpoint, 400 for a disabled endpoint', async () => {
    const post = (path: string, body: object, k = key) =>
      request(t.server).post(path).set('authorization', `Bearer ${k}`).send(body);
    await post(`/v1/events/${ids[0]}/replay`, {}, other).expect(404);
    const theirs = await post('/v1/webhook-endpoints', { url: 'https://h.example.com' }, other).expect(201);
    await post(`/v1/events/${ids[0]}/replay`, { endpointId: theirs.body.endpoint.id }).expect(404);
    const mine = await post('/v1/webhook-endpoints', { url: 'https://h.example.com', enabled: false }).expect(201);
    const res = await post(`/v1/events/${ids[0]}/replay`, { endpointId: mine.body.endpoint.id }).expect(400);
    expect(res.body.message).toMatch(/disabled/);
    const none = await post(`/v1/events/${ids[0]}/replay`, {}).expect(202);
    expect(none.body).toEqual({ deliveries: [] });
    await post(`/v1/events/${ids[0]}/replay`, { endpointId: 5 }).expect(400);
  });
});

import { TEST_ADMIN_TOKEN, TestApp, createWorkspaceVia, eventually, sleep, startTestApp } from '@test/support';
import request from 'supertest';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

interface KeyRow {
  last_used_at: Date | null;
  version: string;
}

describe("API keys' last use, recorded by the background recheck (no write per request)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  // xmin changes with every write of the row: the same xmin means no write happened.
  const row = async (workspaceId: string) =>
    (
      await t.db.query<KeyRow>(
        'select last_used_at, xmin::text as version from api_keys where workspace_id = $1 and revoked_at is null',
        [workspaceId],
      )
    )[0];

  it('records the minute of the last use within seconds, writes the row at most once a minute, and shows it', async () => {
    const { apiKey, workspaceId } = await createWorkspaceVia(t.server);
    expect((await row(workspaceId)).last_used_at).toBeNull();
    let detail = await request(t.server).get(`/admin/workspaces/${workspaceId}`).set(admin).expect(200);
    expect(detail.body.apiKeys[0].lastUsedAt).toBeNull();

    const before = new Date();
    await request(t.server).get('/v1/workspace').set('authorization', `Bearer ${apiKey}`).expect(200);
    const used = await eventually(
      () => row(workspaceId),
      (r) => r.last_used_at !== null,
      { what: 'last_used_at written by the recheck', timeoutMs: 15_000 },
    );
    const minute = new Date(before);
    minute.setUTCSeconds(0, 0);
    expect(used.last_used_at!.getTime()).toBeGreaterThanOrEqual(minute.getTime());
    expect(used.last_used_at!.getUTCSeconds()).toBe(0);
    expect(used.last_used_at!.getTime()).toBeLessThanOrEqual(Date.now());

    // Many requests in the same minute: the recheck keeps confirming the key but writes nothing.
    for (let i = 0; i < 20; i++) {
      await request(t.server).get('/v1/workspace').set('authorization', `Bearer ${apiKey}`).expect(200);
    }
    await sleep(5_000); // two recheck rounds (every 2 s) must pass to prove the absence of a write
    const after = await row(workspaceId);
    if (after.last_used_at!.getTime() === used.last_used_at!.getTime()) {
      expect(after.version).toBe(used.version);
    } else {
      // The minute turned during the requests: one more write, to the later minute.
      expect(after.last_used_at!.getTime()).toBe(used.last_used_at!.getTime() + 60_000);
    }

    detail = await request(t.server).get(`/admin/workspaces/${workspaceId}`).set(admin).expect(200);
    expect(detail.body.apiKeys[0].lastUsedAt).toBe(after.last_used_at!.toISOString());
  });

  it('leaves unused and revoked keys alone', async () => {
    const { apiKey, workspaceId } = await createWorkspaceVia(t.server);
    const second = await request(t.server).post(`/admin/workspaces/${workspaceId}/api-keys`).set(admin).expect(201);
    const [first] = await t.db.query<{ id: string }>('select id from api_keys where workspace_id = $1 and id <> $2', [
      workspaceId,
      second.body.apiKeyId,
    ]);
    await request(t.server).delete(`/admin/api-keys/${first.id}`).set(admin).expect(200);
    await request(t.server).get('/v1/workspace').set('authorization', `Bearer ${apiKey}`).expect(401);
    await sleep(5_000); // two recheck rounds (every 2 s) must pass to prove the absence of a write
    const rows = await t.db.query<{ last_used_at: Date | null }>(
      'select last_used_at from api_keys where workspace_id = $1',
      [workspaceId],
    );
    expect(rows).toEqual([{ last_used_at: null }, { last_used_at: null }]);
  });
});

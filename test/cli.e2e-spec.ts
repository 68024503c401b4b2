import { TEST_ADMIN_TOKEN, TestApp, freePort, startProcess, startTestApp } from '@test/support';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `npm run admin` (apps/cli, from dist/): finds the running standalone, names the URL it tried, lists workspaces. */
describe('the admin CLI', () => {
  let t: TestApp;
  let url: string;
  let dataDir: string;
  const cli = async (env: Record<string, string>, args: string[]) => {
    const run = startProcess('dist/apps/cli/src/main.js', env, args);
    return { code: await run.exited, output: run.output() };
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    // What a standalone on a non-default PORT leaves in its DATA_DIR: the admin token and its address.
    dataDir = mkdtempSync(join(tmpdir(), 'cli-data-'));
    writeFileSync(join(dataDir, 'admin-token'), TEST_ADMIN_TOKEN);
    writeFileSync(join(dataDir, 'api-url'), `${url}\n`);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds the standalone through DATA_DIR (any PORT): create-workspace then list-workspaces', async () => {
    const created = await cli({ DATA_DIR: dataDir }, ['create-workspace', '--name', 'Acme', '--card', 'pm_card_visa']);
    expect(created.code).toBe(0);
    const { workspace, apiKey } = JSON.parse(created.output) as { workspace: { id: string }; apiKey: string };
    expect(apiKey).toMatch(/^sk_live_/);
    const listed = await cli({ DATA_DIR: dataDir }, ['list-workspaces']);
    expect(listed.code).toBe(0);
    const { workspaces } = JSON.parse(listed.output) as { workspaces: { id: string; name: string }[] };
    expect(workspaces[0]).toMatchObject({ id: workspace.id, name: 'Acme' });
  });

  it("sets and resets a console user's password, and names a new key", async () => {
    const env = { DATA_DIR: dataDir };
    const email = 'cli-password@example.com';
    expect(
      (
        await cli({ ...env, CONSOLE_USER_PASSWORD: 'first-password-1' }, [
          'create-user',
          '--email',
          email,
          '--operator',
        ])
      ).code,
    ).toBe(0);
    const set = await cli({ ...env, CONSOLE_USER_PASSWORD: 'second-password-1' }, ['set-password', '--email', email]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.output)).toMatchObject({ user: { email }, sessionsEnded: 0 });
    expect(JSON.parse(set.output).oneTimePassword).toBeUndefined();
    const reset = await cli(env, ['reset-password', '--email', email]);
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.output).oneTimePassword).toMatch(/^[A-Za-z0-9]{16,}$/);
    const rows = await t.db.query<{ action: string; actor: string }>(
      'select action, actor from console_audit where target = $1 order by created_at',
      [email],
    );
    expect(rows.map((r) => r.action)).toEqual(['user.created', 'user.password_reset', 'user.password_reset']);
    expect(rows.every((r) => r.actor === 'admin token')).toBe(true);

    const { workspace } = JSON.parse((await cli(env, ['create-workspace', '--name', 'Keys'])).output) as {
      workspace: { id: string };
    };
    const key = await cli(env, ['create-key', '--workspace', workspace.id, '--name', 'production']);
    expect(key.code).toBe(0);
    const listed = JSON.parse((await cli(env, ['get-workspace', '--workspace', workspace.id])).output) as {
      apiKeys: { name: string | null }[];
    };
    expect(listed.apiKeys.map((k) => k.name)).toEqual([null, 'production']);
  });

  it('takes --url', async () => {
    const listed = await cli({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: '/nonexistent' }, [
      'list-workspaces',
      '--url',
      url,
    ]);
    expect(listed.code).toBe(0);
  });

  it('names the URL it tried when nothing answers there (it said only "fetch failed")', async () => {
    const port = await freePort();
    const failed = await cli({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PORT: String(port), DATA_DIR: '/nonexistent' }, [
      'list-workspaces',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(`Could not reach the service at http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(failed.output).toContain('--url');
  });
});

import { ModulesContainer } from '@nestjs/core';
import { TestApp, createConsoleUser, createWorkspaceVia, startTestApp } from '@test/support';
import request from 'supertest';
import { ConsoleRoute, consoleRoutes } from './support/console-routes';

/**
 * Who may use which console route, checked on every route the app registers (found from Nest's
 * metadata, as test/body-validation.e2e-spec.ts finds the API's bodies): each route declares its
 * `@ConsoleAccess(...)`, read by the one ConsoleGuard, and a route without it fails here (and is
 * refused by the guard). The refusals are generated from those declarations:
 *  - `read`/`write` (every `/console/w/:ws/...` route): a viewer of the workspace is refused every
 *    write (403), a member of another workspace everything (404: the workspace is not disclosed).
 *  - `operator`: 403 to members and viewers; `signed-in`: only the few any user has (their own
 *    sign-out, the workspace list and audit log they may see).
 */
const ANONYMOUS = [
  'GET /console/assets/console.css',
  'GET /console/assets/console.js',
  'GET /console/setup',
  'GET /console/sign-in',
  'GET /console/sso/callback',
  'GET /console/sso/start',
  'POST /console/setup',
  'POST /console/sign-in',
];
/** Signed in as anyone: each shows or changes only what is the user's own. */
const ANY_USER = [
  'GET /console',
  'GET /console/*',
  'GET /console/account',
  'POST /console/account/password',
  'GET /console/audit',
  'GET /console/workspaces',
  'POST /console/sign-out',
  'POST /console/sign-out-everywhere',
];

const VIEWER_REFUSED = 'Your role in this workspace is viewer: it can look but not change anything';
const NOT_DISCLOSED = 'Workspace was not found';
const OPERATORS_ONLY = 'Only operators can do this';

/** The one state-changing route that records nothing: ending one's own session changes nothing else. */
const NOT_AUDITED = ['POST /console/sign-out'];

const key = (r: ConsoleRoute) => `${r.method} ${r.path}`;
const inWorkspace = (r: ConsoleRoute) => r.access === 'read' || r.access === 'write';

describe('console access: every route refuses the roles it must', () => {
  let t: TestApp;
  let routes: ConsoleRoute[];
  let ws: string;
  let other: string;
  let apiKey: string;
  const sessions: Record<'member' | 'viewer', { cookie: string; csrf: string }> = {} as never;

  beforeAll(async () => {
    t = await startTestApp();
    routes = consoleRoutes(t.app.get(ModulesContainer));
    const created = await createWorkspaceVia(t.server);
    ws = created.workspaceId;
    apiKey = created.apiKey;
    other = (await createWorkspaceVia(t.server)).workspaceId;
    for (const role of ['member', 'viewer'] as const) {
      const who = { email: `${role}@example.com`, password: `${role}-password-1` };
      await createConsoleUser(t, { ...who, workspaceId: ws, role });
      sessions[role] = await signIn(who);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The password form (double-submit token first), then a page for the session's CSRF token. */
  async function signIn(who: { email: string; password: string }) {
    const form = await request(t.server).get('/console/sign-in').expect(200);
    const token = /name="_signin" value="([^"]+)"/.exec(form.text)![1];
    const signinCookie = ([] as string[]).concat(form.headers['set-cookie'] ?? [])[0].split(';')[0];
    const res = await request(t.server)
      .post('/console/sign-in')
      .set('cookie', signinCookie)
      .type('form')
      .send({ _signin: token, ...who })
      .expect(303);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('cd_console='))!
      .split(';')[0];
    const page = await request(t.server).get('/console/workspaces').set('cookie', cookie).expect(200);
    return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page.text)![1] };
  }

  /** The route with `:ws` set to a workspace and any other parameter to an id that does not exist. */
  function send(route: ConsoleRoute, as: 'member' | 'viewer', workspace: string) {
    const path = route.path.replace(':ws', workspace).replace(/:[A-Za-z]+/g, 'x_0000000000000000000000');
    const { cookie, csrf } = sessions[as];
    const req = request(t.server)[route.method.toLowerCase() as 'get' | 'post'](path).set('cookie', cookie);
    return route.method === 'GET' ? req : req.type('form').send({ _csrf: csrf });
  }

  const expectAnswer = (res: request.Response, route: ConsoleRoute, status: number, message: string) =>
    expect([key(route), res.status, res.text.includes(message)]).toEqual([key(route), status, true]);

  it('finds the console routes: pages and about 30 forms, each GET or POST', () => {
    const posts = routes.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(30);
    expect(routes.every((r) => ['GET', 'POST'].includes(r.method))).toBe(true);
    expect(routes.map(key)).toEqual(
      expect.arrayContaining([...ANONYMOUS, ...ANY_USER, 'POST /console/w/:ws/keys', 'POST /console/users/:id/role']),
    );
  });

  it('has every route declare its access, and workspace routes declare read or write (write for every form)', () => {
    expect(routes.filter((r) => !r.access).map(key)).toEqual([]);
    const underWorkspace = routes.filter((r) => r.path.startsWith('/console/w/:ws'));
    expect(underWorkspace.filter((r) => !inWorkspace(r)).map(key)).toEqual([]);
    expect(underWorkspace.filter((r) => r.method === 'POST' && r.access !== 'write').map(key)).toEqual([]);
    expect(routes.filter((r) => inWorkspace(r) && !r.path.startsWith('/console/w/:ws')).map(key)).toEqual([]);
    expect(
      routes
        .filter((r) => r.access === 'signed-in')
        .map(key)
        .sort(),
    ).toEqual([...ANY_USER].sort());
  });

  it('has every state-changing route declare the audit entry it writes', () => {
    expect(routes.filter((r) => r.method === 'POST' && !r.audited && !NOT_AUDITED.includes(key(r))).map(key)).toEqual(
      [],
    );
  });

  it('serves without a session only the sign-in, setup, single sign-on and asset routes', () => {
    expect(
      routes
        .filter((r) => r.anonymous)
        .map(key)
        .sort(),
    ).toEqual([...ANONYMOUS].sort());
  });

  it('refuses a viewer every write in their workspace, and a member of another workspace all of it', async () => {
    const writes = routes.filter((r) => inWorkspace(r) && r.method === 'POST');
    expect(writes.length).toBeGreaterThanOrEqual(19);
    for (const route of writes) {
      expectAnswer(await send(route, 'viewer', ws), route, 403, VIEWER_REFUSED);
    }
    for (const route of routes.filter(inWorkspace)) {
      expectAnswer(await send(route, 'member', other), route, 404, NOT_DISCLOSED);
      expectAnswer(await send(route, 'viewer', other), route, 404, NOT_DISCLOSED);
    }
  });

  it('lets a member past the role check in their own workspace (so the refusals above are about the role)', async () => {
    for (const route of routes.filter((r) => inWorkspace(r) && r.method === 'POST')) {
      const res = await send(route, 'member', ws);
      expect([key(route), res.status !== 403 && !res.text.includes(NOT_DISCLOSED)]).toEqual([key(route), true]);
    }
  });

  it('refuses members and viewers every operator route', async () => {
    const operatorRoutes = routes.filter((r) => r.access === 'operator');
    expect(operatorRoutes.map(key)).toEqual(
      expect.arrayContaining([
        'GET /console/cluster',
        'GET /console/search',
        'POST /console/workspaces',
        'POST /console/users/:id/disable',
      ]),
    );
    for (const route of operatorRoutes) {
      for (const as of ['member', 'viewer'] as const) {
        expectAnswer(await send(route, as, ws), route, 403, OPERATORS_ONLY);
      }
    }
  });

  it('answers a database failure while deleting a domain as an error (500), not as "not found"', async () => {
    const created = await request(t.server)
      .post('/v1/domains')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ hostname: 'outage.example.com', originUrl: 'http://93.184.216.34' })
      .expect(201);
    const id = (created.body as { domain: { id: string } }).domain.id;
    // A real failure of the database under the page's read: the table is briefly not there.
    await t.db.query('alter table domains rename to domains_away');
    try {
      const res = await send(
        { method: 'POST', path: `/console/w/:ws/domains/${id}/delete` } as ConsoleRoute,
        'member',
        ws,
      );
      expect([res.status, res.text.includes('was not found')]).toEqual([500, false]);
    } finally {
      await t.db.query('alter table domains_away rename to domains');
    }
    const gone = await send(
      { method: 'POST', path: '/console/w/:ws/domains/dom_0000000000000000000000/delete' } as ConsoleRoute,
      'member',
      ws,
    );
    expect([gone.status, gone.text.includes('Domain was not found')]).toEqual([404, true]);
  });
});

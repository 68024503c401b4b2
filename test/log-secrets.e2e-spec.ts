import { MikroORM } from '@mikro-orm/core';
import { MikroSqlExecutor } from '@app/persistence';
import {
  DnsServer,
  REGISTRANT,
  TEST_ADMIN_TOKEN,
  TEST_ENCRYPTION_KEY,
  TEST_SIGNING_SECRET,
  clusterProcessEnv,
  stopAllProcesses,
  ServiceProcess,
  TestDatabase,
  WebhookReceiver,
  createTestDatabase,
  domainEnv,
  domainZones,
  eventually,
  freeEdgePorts,
  freePort,
  startDnsServer,
  startProcess,
  startWebhookReceiver,
  uniqueDomain,
  waitForUrl,
} from '@test/support';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { Logger } from 'pino';
import pinoHttp from 'pino-http';
import request from 'supertest';
import { pinoOptions } from '../libs/http/src/http-core.module';
import { ormOptions } from '../libs/persistence/src/orm-options';

/** Secrets never reach the logs: database errors, and a whole run at LOG_LEVEL=debug. */

const unique = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;

/** The app's root logger (HttpCoreModule's options) writing into a string. */
function appLogger(): { logger: Logger; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  const logger = pinoHttp(pinoOptions({ logLevel: 'debug', service: 'test' }), stream).logger as unknown as Logger;
  return { logger, text: () => out };
}

describe('a database error names the statement and the error, never the values (item 3)', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let sql: MikroSqlExecutor;

  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
    orm = await MikroORM.init(ormOptions({ url: db.url, embedded: false }));
    sql = MikroSqlExecutor.of(orm);
    await sql.query(`create table guarded (id int primary key, note text check (note not like '%trip-wire%'), n int)`);
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  async function failure(run: () => Promise<unknown>): Promise<Error> {
    try {
      await run();
    } catch (error) {
      return error as Error;
    }
    throw new Error('the statement did not fail');
  }

  it.each([
    [
      'MikroORM (values spliced into the SQL)',
      (secret: string) => sql.query('insert into guarded (id, note) values (?, ?)', [1, `trip-wire ${secret}`]),
      'insert into guarded (id, note) values (?, ?)',
    ],
    [
      'bound parameters (SqlExecutor.bound: values sent beside the statement, $n in the message)',
      (secret: string) =>
        sql.bound('insert into guarded (id, note) values (?::int, ?::text)', [2, `trip-wire ${secret}`]),
      'insert into guarded (id, note) values ($1::int, $2::text)',
    ],
    [
      'a transaction',
      (secret: string) =>
        sql.transaction((tx) => tx.query('insert into guarded (id, note) values (?, ?)', [3, `trip-wire ${secret}`])),
      'insert into guarded (id, note) values (?, ?)',
    ],
    [
      'a value PostgreSQL quotes in its own message',
      (secret: string) => sql.query('select ?::uuid', [secret]),
      'select ?::uuid',
    ],
  ])('%s', async (_name, run, statement) => {
    const secret = unique('db-secret');
    const error = await failure(() => run(secret));
    expect(error.message).toContain(statement);
    expect(error.message).toMatch(/violates check constraint|invalid input syntax/);
    const { logger, text } = appLogger();
    logger.error({ err: error }, 'Snapshot write failed');
    await new Promise((done) => setImmediate(done));
    const line = text();
    expect(line).toContain(statement.replace(/"/g, '\\"'));
    for (const leaked of [error.message, error.stack ?? '', line]) expect(leaked).not.toContain(secret);
    // The error keeps its code for whoever classifies it.
    expect((error as { code?: string }).code).toMatch(/^(23514|22P02)$/);
  });
});

/**
 * A run of the built standalone at LOG_LEVEL=debug that creates every kind of secret, then a search
 * of everything it printed (stdout and stderr, JSON lines) for each value: none may be there.
 */
describe('a run at LOG_LEVEL=debug logs none of the secrets it created (item 7)', () => {
  let db: TestDatabase;
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let proc: ServiceProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
    receiver = await startWebhookReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'log-secrets-'));
  });
  afterAll(async () => {
    await proc?.stop();
    await receiver?.close();
    await dns?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds no secret in the output, and every request line has its status', async () => {
    proc = startProcess('dist/apps/standalone/src/main.js', {
      ...domainEnv(dns.address),
      ...(await freeEdgePorts()),
      PORT: String(await freePort()),
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      // This run makes the database refuse writes on purpose (undocumented 5xx answers): no exchange check.
      OPENAPI_VIOLATIONS_FILE: '',
    });
    const base = await waitForUrl(proc);
    const api = () => request(base);
    const secrets: Record<string, string> = {};
    const keep = (name: string, value: unknown) => {
      expect([name, typeof value]).toEqual([name, 'string']);
      secrets[name] = value as string;
      return value as string;
    };
    // Generated at start and kept in DATA_DIR (the banner, piped, names the file: item 1).
    const admin = keep('admin token', readFileSync(join(dataDir, 'admin-token'), 'utf8').trim());
    keep('signing secret', readFileSync(join(dataDir, 'signing-secret'), 'utf8').trim());
    keep('encryption key', readFileSync(join(dataDir, 'encryption-key'), 'utf8').trim());
    const asAdmin = { authorization: `Bearer ${admin}` };

    const created = await api()
      .post('/admin/workspaces')
      .set(asAdmin)
      .send({ name: 'Acme', paymentMethod: 'pm_card_visa' })
      .expect(201);
    const key = keep('API key', created.body.apiKey);
    const workspaceId = created.body.workspace.id as string;
    const asKey = { authorization: `Bearer ${key}` };

    // Webhooks: the secret, and a delivery signed with it.
    const endpoint = await api()
      .post('/v1/webhook-endpoints')
      .set(asKey)
      .send({ url: `${receiver.url}/in` })
      .expect(201);
    keep('webhook secret', endpoint.body.endpoint.secret);
    const rotated = await api()
      .post(`/v1/webhook-endpoints/${endpoint.body.endpoint.id}/rotate-secret`)
      .set(asKey)
      .expect(200);
    keep('rotated webhook secret', rotated.body.endpoint.secret);
    await api().post(`/v1/webhook-endpoints/${endpoint.body.endpoint.id}/test`).set(asKey).expect(202);
    await eventually(
      () => receiver.received('/in').length,
      (n) => n > 0,
      { what: 'the test delivery' },
    );

    // OAuth: a client secret and an access token, used.
    const client = await api()
      .post(`/admin/workspaces/${workspaceId}/oauth-clients`)
      .set(asAdmin)
      .send({ name: 'reporting', scopes: ['domains:read'] })
      .expect(201);
    const clientSecret = keep('OAuth client secret', client.body.client_secret);
    const token = await api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: clientSecret })
      .expect(200);
    const accessToken = keep('OAuth access token', token.body.access_token);
    await api().get('/v1/domains').set('authorization', `Bearer ${accessToken}`).expect(200);

    // A domain with private metadata, and the end customer's connect session.
    const privateNote = keep('domain metadata', unique('private-metadata'));
    const domain = await api()
      .post('/v1/domains')
      .set(asKey)
      .send({ hostname: 'shop.customer-a.com', originUrl: 'http://93.184.216.34', metadata: { note: privateNote } })
      .expect(201);
    const domainId = domain.body.domain.id as string;
    const session = await api().post(`/v1/domains/${domainId}/connect-session`).set(asKey).expect(200);
    const sessionToken = keep('connect-session token', session.body.connectSession.token);
    const asSession = { authorization: `Bearer ${sessionToken}` };
    const seen = await api().get(`/v1/domains/${domainId}`).set(asSession).expect(200);
    expect(JSON.stringify(seen.body)).not.toContain(privateNote);
    await api().post(`/v1/domains/${domainId}/check`).set(asSession).expect(200);
    await api().get(`/widget/demo?token=${sessionToken}`).expect(200);

    // Secrets where they do not belong: in URLs (by name and by shape), refused.
    const oidcCode = keep('OAuth code in a URL', unique('oidc-code'));
    const plain = keep('a secret query value', unique('plain-secret'));
    await api().get(`/v1/domains?access_token=${accessToken}`).expect(401);
    await api().get(`/v1/domains?api_key=${key}`).expect(401);
    await api().get(`/v1/workspace?client_secret=${clientSecret}&password=${plain}`).expect(401);
    await api().get(`/v1/domains/${key}`).set(asKey).expect(404);
    await api().get(`/console/sso/callback?code=${oidcCode}&state=x`);
    await api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: `${clientSecret}x` })
      .expect(401);

    // The console: a password and the session cookie it signs in with.
    const password = keep('console password', unique('console-password'));
    await api()
      .post('/admin/console-users')
      .set(asAdmin)
      .send({ email: 'ops@example.com', password, operator: true })
      .expect(201);
    const form = await api().get('/console/sign-in').expect(200);
    const formToken = /name="_signin" value="([^"]+)"/.exec(form.text)![1];
    const formCookie = ([] as string[])
      .concat(form.headers['set-cookie'])
      .find((c) => c.startsWith('cd_console_signin='))!;
    const signedIn = await api()
      .post('/console/sign-in')
      .set('cookie', formCookie.split(';')[0])
      .type('form')
      .send({ _signin: formToken, email: 'ops@example.com', password, next: '/console/workspaces' })
      .expect(303);
    const sessionCookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'])
      .find((c) => c.startsWith('cd_console='))!;
    keep('console session', sessionCookie.split(';')[0].slice('cd_console='.length));
    await api().get('/console/workspaces').set('cookie', sessionCookie.split(';')[0]).expect(200);

    // A purchase: the registrant's e-mail and phone.
    const email = keep('registrant e-mail', `${unique('registrant').toLowerCase()}@example.com`);
    const phone = keep('registrant phone', `+44.20${String(Date.now()).slice(-8)}`);
    const purchase = await api()
      .post('/v1/domain-purchases')
      .set(asKey)
      .send({ hostname: uniqueDomain(), registrant: { ...REGISTRANT, email, phone } })
      .expect(201);
    await eventually(
      async () =>
        (await api().get(`/v1/domain-purchases/${purchase.body.purchase.id}`).set(asKey)).body.purchase?.status,
      (status) => status === 'completed',
      { what: 'the purchase completing' },
    );

    // Database errors with values: the database refuses a domain's state and a purchase's registrant.
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      await pg.query(`alter table domains add constraint log_test_trip check (state::text not like '%trip-wire%')`);
      await pg.query(`alter table purchases add constraint log_test_trip check (state::text not like '%trip-wire%')`);
    } finally {
      await pg.end();
    }
    const refusedNote = keep('metadata of a refused write', `trip-wire ${unique('refused-metadata')}`);
    const refused = await api()
      .post('/v1/domains')
      .set(asKey)
      .send({ hostname: 'refused.customer-a.com', originUrl: 'http://93.184.216.34', metadata: { note: refusedNote } })
      .timeout(60_000);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const refusedEmail = keep(
      'registrant e-mail of a refused write',
      `trip-wire.${unique('r').toLowerCase()}@example.com`,
    );
    await api()
      .post('/v1/domain-purchases')
      .set(asKey)
      .send({ hostname: uniqueDomain(), registrant: { ...REGISTRANT, email: refusedEmail } })
      .timeout(60_000)
      .catch(() => undefined);
    const running = proc;
    await eventually(running.output, (out) => /"level":50.*(violates check constraint|log_test_trip)/.test(out), {
      what: 'the refused write logged at error',
    });

    await proc.stop();
    const output = proc.output();
    const lines = output.split('\n').filter((l) => l.trim());
    const found = Object.entries(secrets)
      .filter(([, value]) => output.includes(value))
      .map(([name]) => name);
    expect(found).toEqual([]);

    // Request lines carry the status (item 4): errors can be grepped.
    const requestLines = lines
      .filter((l) => l.includes('"request completed"'))
      .map((l) => JSON.parse(l) as { res: { statusCode: unknown }; req: { url: string } });
    expect(requestLines.length).toBeGreaterThan(20);
    expect(requestLines.filter((l) => typeof l.res.statusCode !== 'number')).toEqual([]);
    expect(requestLines.map((l) => l.res.statusCode)).toEqual(expect.arrayContaining([200, 201, 303, 401, 404]));
    // The database error line names the statement and the constraint.
    expect(output).toMatch(/violates check constraint \\"log_test_trip\\"/);
  });
});

/** The same search over the split processes (api and node on NATS), with secrets set in their environment. */
describe('the split processes at LOG_LEVEL=debug log none of the secrets either (item 7)', () => {
  let db: TestDatabase;
  let dns: DnsServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
  });
  afterAll(async () => {
    await stopAllProcesses();
    await dns?.close();
    await db?.drop();
  });

  it('api and node print no secret, the refused write included', async () => {
    const env = {
      ...clusterProcessEnv(db.url),
      ...domainEnv(dns.address),
      LOG_LEVEL: 'debug',
      OPENAPI_VIOLATIONS_FILE: '',
    };
    const node = startProcess('dist/apps/node/src/main.js', { ...env, NODE_ID: 'log-node' });
    await waitForUrl(node);
    const apiProcess = startProcess('dist/apps/api/src/main.js', env);
    const base = await waitForUrl(apiProcess);
    const secrets: Record<string, string> = {
      'admin token': TEST_ADMIN_TOKEN,
      'signing secret': TEST_SIGNING_SECRET,
      'encryption key': TEST_ENCRYPTION_KEY,
    };
    const api = () => request(base);
    const created = await api()
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name: 'Split', paymentMethod: 'pm_card_visa' })
      .expect(201);
    const key = (secrets['API key'] = created.body.apiKey as string);
    const asKey = { authorization: `Bearer ${key}` };
    const endpoint = await api()
      .post('/v1/webhook-endpoints')
      .set(asKey)
      .send({ url: 'https://hooks.example.com/in' })
      .expect(201);
    secrets['webhook secret'] = endpoint.body.endpoint.secret as string;
    const domain = await api()
      .post('/v1/domains')
      .set(asKey)
      .send({ hostname: 'shop.customer-a.com', originUrl: 'http://93.184.216.34' })
      .expect(201);
    const session = await api().post(`/v1/domains/${domain.body.domain.id}/connect-session`).set(asKey).expect(200);
    const token = (secrets['connect-session token'] = session.body.connectSession.token as string);
    await api().get(`/v1/domains/${domain.body.domain.id}`).set('authorization', `Bearer ${token}`).expect(200);
    await api().get(`/v1/domains?access_token=${token}&api_key=${key}`).expect(401);

    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      await pg.query(`alter table domains add constraint log_test_trip check (state::text not like '%trip-wire%')`);
    } finally {
      await pg.end();
    }
    const refused = (secrets['metadata of a refused write'] = `trip-wire ${unique('split-refused')}`);
    const answer = await api()
      .post('/v1/domains')
      .set(asKey)
      .send({ hostname: 'refused.customer-a.com', originUrl: 'http://93.184.216.34', metadata: { note: refused } })
      .timeout(60_000);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await eventually(node.output, (out) => out.includes('log_test_trip'), { what: "the node's refused write logged" });

    await Promise.all([apiProcess.stop(), node.stop()]);
    const outputs = { api: apiProcess.output(), node: node.output() };
    const found = Object.entries(outputs).flatMap(([process, output]) =>
      Object.entries(secrets)
        .filter(([, value]) => output.includes(value))
        .map(([name]) => `${name} in the ${process}'s output`),
    );
    expect(found).toEqual([]);
    expect(outputs.api).toMatch(/"request completed"/);
  });
});

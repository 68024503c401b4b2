import { AppConfig, loadConfig } from '@app/config';
import { configureHttpApp, createFastifyAdapter } from '@app/http';
import { Clock, WEBHOOK_CLOCK } from '@app/webhooks';
import { Test } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import request from 'supertest';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module';
import { freeEdgePorts } from './free-ports';
import { createTestDatabase } from './test-database';
import { TEST_ADMIN_TOKEN, TEST_ENCRYPTION_KEY, TEST_SIGNING_SECRET, TestApp } from './test-app';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private at: Date = new Date()) {}
  now(): Date {
    return new Date(this.at.getTime());
  }
  set(at: Date | number): void {
    this.at = new Date(at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

/**
 * Like startTestApp (the real standalone app and pipeline on a fresh database), with the webhook
 * clock replaced: the relay and delivery workers then see only the time the test sets.
 */
export async function startTestAppWithClock(clock: Clock, env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config: AppConfig = loadConfig(
    {
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SIGNING_SECRET: TEST_SIGNING_SECRET,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      RATE_LIMITS: 'off',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...(await freeEdgePorts()),
      ...env,
      DATABASE_URL: db.url,
    },
    'standalone',
  );
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [StandaloneModule.forRoot(config, { url: db.url, embedded: false })],
    })
      .overrideProvider(WEBHOOK_CLOCK)
      .useValue(clock)
      .compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(), {
      bufferLogs: true,
      bodyParser: false,
    });
    configureHttpApp(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return {
      app,
      config,
      db: { ...db, query: (sql, params) => queryOnce(db.url, sql, params) },
      server: app.getHttpServer(),
      close: async () => {
        await app.close();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}

async function queryOnce<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    return (await pg.query(sql, params)).rows as T[];
  } finally {
    await pg.end();
  }
}

/** A workspace through the admin API: its key and id. */
export async function createWorkspaceVia(
  baseUrlOrServer: string | TestApp['server'],
  card = true,
): Promise<{ apiKey: string; workspaceId: string }> {
  const body = card ? { name: 'webhooks', paymentMethod: 'pm_card_visa' } : { name: 'webhooks' };
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  let json: any;
  if (typeof baseUrlOrServer === 'string') {
    json = await (await fetch(`${baseUrlOrServer}/admin/workspaces`, init)).json();
  } else {
    json = (await request(baseUrlOrServer).post('/admin/workspaces').set(init.headers).send(body).expect(201)).body;
  }
  return { apiKey: json.apiKey, workspaceId: json.workspace.id };
}

/**
 * Writes events to the outbox as an actor does (the relay's only input), oldest first; resolves
 * with their ids. `data` defaults to a small domain object.
 */
export async function insertOutboxEvents(
  db: TestApp['db'] | { query(sql: string, params?: unknown[]): Promise<unknown[]> },
  workspaceId: string,
  events: { type: string; data?: Record<string, unknown> }[],
): Promise<string[]> {
  const ids = events.map((_, i) => `evt_test${Date.now().toString(36)}${i.toString().padStart(5, '0')}${randomTag()}`);
  await db.query(
    `insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id, created_at)
     select id, $1, type, data, 'test', 'test', clock_timestamp() + (n * interval '1 microsecond')
     from unnest($2::text[], $3::text[], $4::jsonb[]) with ordinality as e(id, type, data, n)`,
    [
      workspaceId,
      ids,
      events.map((e) => e.type),
      events.map((e, i) => JSON.stringify(e.data ?? { domain: { id: `dom_test${i}`, hostname: `h${i}.example.com` } })),
    ],
  );
  return ids;
}

const randomTag = () => Math.random().toString(36).slice(2, 8);
